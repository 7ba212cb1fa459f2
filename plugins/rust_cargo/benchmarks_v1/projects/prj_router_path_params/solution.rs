// Task: implement routing with the parser in `crate::pattern`.
// `Router::add(pattern, handler)` registers a route; `Router::route(path)`
// returns the first registered route that matches, as a `Match` with the
// handler name and the bound parameters (name, value) in pattern order.
// A `Rest` segment binds the parameter "*" to the remaining segments joined
// with '/' (an empty string when nothing remains). Without `Rest`, the
// number of segments must be equal.
use crate::pattern::{parse_pattern, split_path, Segment};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub handler: String,
    pub params: Vec<(String, String)>,
}

#[derive(Debug, Default)]
pub struct Router {
    routes: Vec<(Vec<Segment>, String)>,
}

fn match_segments(pattern: &[Segment], path: &[&str]) -> Option<Vec<(String, String)>> {
    let mut params = Vec::new();
    for (i, seg) in pattern.iter().enumerate() {
        match seg {
            Segment::Rest => {
                let rest = path.get(i..).unwrap_or(&[]);
                params.push(("*".to_string(), rest.join("/")));
                return Some(params);
            }
            Segment::Literal(lit) => {
                if path.get(i) != Some(&lit.as_str()) {
                    return None;
                }
            }
            Segment::Param(name) => {
                let value = path.get(i)?;
                params.push((name.clone(), value.to_string()));
            }
        }
    }
    if pattern.len() == path.len() {
        Some(params)
    } else {
        None
    }
}

impl Router {
    pub fn new() -> Router {
        Router::default()
    }

    pub fn add(&mut self, pattern: &str, handler: &str) {
        self.routes.push((parse_pattern(pattern), handler.to_string()));
    }

    pub fn route(&self, path: &str) -> Option<Match> {
        let segments = split_path(path);
        self.routes.iter().find_map(|(pattern, handler)| {
            match_segments(pattern, &segments).map(|params| Match { handler: handler.clone(), params })
        })
    }
}
