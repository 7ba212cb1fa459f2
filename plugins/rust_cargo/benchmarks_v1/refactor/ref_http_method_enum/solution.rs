// Task: replace the method strings with an enum `Method` (variants Get, Head,
// Post, Put, Delete; derive Debug, Clone, Copy, PartialEq, Eq) that implements
// `FromStr` for the exact upper-case names ("GET", ...) with `Err(())` for
// anything else, and a method `is_cacheable(self) -> bool` (true for Get and
// Head). `Route::method` becomes a `Method` and `Router::add` / `Router::find`
// take a `Method` instead of a `&str`.
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    Post,
    Put,
    Delete,
}

impl Method {
    pub fn is_cacheable(self) -> bool {
        matches!(self, Method::Get | Method::Head)
    }
}

impl FromStr for Method {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "GET" => Ok(Method::Get),
            "HEAD" => Ok(Method::Head),
            "POST" => Ok(Method::Post),
            "PUT" => Ok(Method::Put),
            "DELETE" => Ok(Method::Delete),
            _ => Err(()),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub method: Method,
    pub path: String,
    pub handler: String,
}

#[derive(Debug, Default)]
pub struct Router {
    routes: Vec<Route>,
}

impl Router {
    pub fn new() -> Router {
        Router::default()
    }

    pub fn add(&mut self, method: Method, path: &str, handler: &str) {
        self.routes.push(Route { method, path: path.to_string(), handler: handler.to_string() });
    }

    /// The handler of the first route with this method and path.
    pub fn find(&self, method: Method, path: &str) -> Option<&str> {
        self.routes
            .iter()
            .find(|r| r.method == method && r.path == path)
            .map(|r| r.handler.as_str())
    }
}
