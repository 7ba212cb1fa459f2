// Task: replace the method strings with an enum `Method` (variants Get, Head,
// Post, Put, Delete; derive Debug, Clone, Copy, PartialEq, Eq) that implements
// `FromStr` for the exact upper-case names ("GET", ...) with `Err(())` for
// anything else, and a method `is_cacheable(self) -> bool` (true for Get and
// Head). `Route::method` becomes a `Method` and `Router::add` / `Router::find`
// take a `Method` instead of a `&str`.

#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub method: String,
    pub path: String,
    pub handler: String,
}

#[derive(Debug, Default)]
pub struct Router {
    routes: Vec<Route>,
}

pub fn is_cacheable(method: &str) -> bool {
    method == "GET" || method == "HEAD"
}

impl Router {
    pub fn new() -> Router {
        Router::default()
    }

    pub fn add(&mut self, method: &str, path: &str, handler: &str) {
        self.routes.push(Route { method: method.to_string(), path: path.to_string(), handler: handler.to_string() });
    }

    /// The handler of the first route with this method and path.
    pub fn find(&self, method: &str, path: &str) -> Option<&str> {
        self.routes
            .iter()
            .find(|r| r.method == method && r.path == path)
            .map(|r| r.handler.as_str())
    }
}
