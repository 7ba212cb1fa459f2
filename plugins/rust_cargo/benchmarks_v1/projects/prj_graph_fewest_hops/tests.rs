use crate::graph::Graph;
use crate::route::{fewest_hops, reachable};

fn net() -> Graph {
    let mut g = Graph::new();
    g.link("a", "c");
    g.link("a", "b");
    g.link("b", "d");
    g.link("c", "d");
    g.link("d", "e");
    g.link("a", "x");
    g.link("x", "y");
    g.link("y", "z");
    g.link("z", "e");
    g.link("island", "island");
    g
}

fn names(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| s.to_string()).collect()
}

#[test]
fn shortest_path_prefers_fewest_edges_then_order() {
    assert_eq!(fewest_hops(&net(), "a", "e"), Some(names(&["a", "b", "d", "e"])));
    assert_eq!(fewest_hops(&net(), "c", "e"), Some(names(&["c", "d", "e"])));
}

#[test]
fn trivial_and_missing_paths() {
    assert_eq!(fewest_hops(&net(), "d", "d"), Some(names(&["d"])));
    assert_eq!(fewest_hops(&net(), "e", "a"), None);
    assert_eq!(fewest_hops(&net(), "a", "nowhere"), None);
    assert_eq!(fewest_hops(&net(), "nowhere", "nowhere"), None);
}

#[test]
fn reachable_nodes_sorted() {
    assert_eq!(reachable(&net(), "x"), names(&["e", "y", "z"]));
    assert_eq!(reachable(&net(), "a"), names(&["b", "c", "d", "e", "x", "y", "z"]));
}

#[test]
fn reachable_edge_cases() {
    assert!(reachable(&net(), "e").is_empty());
    assert!(reachable(&net(), "ghost").is_empty());
    assert_eq!(reachable(&net(), "island"), names(&["island"]));
}
