// Task: implement routing over `crate::graph::Graph`.
// `fewest_hops(g, from, to)` returns the nodes of a path with the fewest
// edges, from `from` to `to` inclusive, found by breadth-first search that
// visits neighbours in the order `Graph::neighbours` gives (so among equally
// short paths the one found first wins); `Some(vec![from])` when from == to
// and from exists; None when a node is unknown or `to` is unreachable.
// `reachable(g, from)` returns every node reachable from `from` (itself
// excluded unless it lies on a cycle), sorted by name; empty if unknown.
use crate::graph::Graph;
use std::collections::{BTreeSet, HashMap, VecDeque};

pub fn fewest_hops(g: &Graph, from: &str, to: &str) -> Option<Vec<String>> {
    if !g.contains(from) || !g.contains(to) {
        return None;
    }
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut queue = VecDeque::new();
    queue.push_back(from);
    parent.insert(from, from);
    while let Some(node) = queue.pop_front() {
        if node == to {
            let mut path = vec![to.to_string()];
            let mut cur = to;
            while cur != from {
                cur = parent[cur];
                path.push(cur.to_string());
            }
            path.reverse();
            return Some(path);
        }
        for next in g.neighbours(node) {
            if !parent.contains_key(next) {
                parent.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    None
}

pub fn reachable(g: &Graph, from: &str) -> Vec<String> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut stack: Vec<&str> = g.neighbours(from);
    while let Some(node) = stack.pop() {
        if seen.insert(node) {
            stack.extend(g.neighbours(node));
        }
    }
    seen.into_iter().map(|s| s.to_string()).collect()
}
