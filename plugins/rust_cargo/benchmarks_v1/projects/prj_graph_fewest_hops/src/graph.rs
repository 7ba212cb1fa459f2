use std::collections::{BTreeMap, BTreeSet};

/// A directed graph of named nodes.
#[derive(Debug, Default, Clone)]
pub struct Graph {
    edges: BTreeMap<String, BTreeSet<String>>,
}

impl Graph {
    pub fn new() -> Graph {
        Graph::default()
    }

    /// Adds the edge from -> to (and both nodes).
    pub fn link(&mut self, from: &str, to: &str) {
        self.edges.entry(from.to_string()).or_default().insert(to.to_string());
        self.edges.entry(to.to_string()).or_default();
    }

    pub fn contains(&self, node: &str) -> bool {
        self.edges.contains_key(node)
    }

    /// The successors of `node` in ascending name order (empty if unknown).
    pub fn neighbours(&self, node: &str) -> Vec<&str> {
        self.edges.get(node).map(|s| s.iter().map(|n| n.as_str()).collect()).unwrap_or_default()
    }
}
