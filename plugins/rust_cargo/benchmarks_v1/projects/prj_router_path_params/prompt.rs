// Task: implement routing with the parser in `crate::pattern`.
// `Router::add(pattern, handler)` registers a route; `Router::route(path)`
// returns the first registered route that matches, as a `Match` with the
// handler name and the bound parameters (name, value) in pattern order.
// A `Rest` segment binds the parameter "*" to the remaining segments joined
// with '/' (an empty string when nothing remains). Without `Rest`, the
// number of segments must be equal.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub handler: String,
    pub params: Vec<(String, String)>,
}

#[derive(Debug, Default)]
pub struct Router {}

impl Router {
    pub fn new() -> Router {
        Router::default()
    }
}
