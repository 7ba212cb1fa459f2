// Task: implement routing over `crate::graph::Graph`.
// `fewest_hops(g, from, to)` returns the nodes of a path with the fewest
// edges, from `from` to `to` inclusive, found by breadth-first search that
// visits neighbours in the order `Graph::neighbours` gives (so among equally
// short paths the one found first wins); `Some(vec![from])` when from == to
// and from exists; None when a node is unknown or `to` is unreachable.
// `reachable(g, from)` returns every node reachable from `from` (itself
// excluded unless it lies on a cycle), sorted by name; empty if unknown.
use crate::graph::Graph;

pub fn fewest_hops(g: &Graph, from: &str, to: &str) -> Option<Vec<String>> {
    todo!()
}

pub fn reachable(g: &Graph, from: &str) -> Vec<String> {
    todo!()
}
