use super::*;
use std::collections::BTreeMap;

fn graph(entries: &[(&'static str, &[&'static str])]) -> BTreeMap<&'static str, Vec<&'static str>> {
    entries.iter().map(|&(t, ps)| (t, ps.to_vec())).collect()
}

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_chain_builds_bottom_up() {
    let g = graph(&[("app", &["lib"]), ("lib", &["core"])]);
    assert_eq!(build_order(&g), Ok(strings(&["core", "lib", "app"])));
}

#[test]
fn ready_targets_go_alphabetically() {
    let g = graph(&[("app", &["net", "db"]), ("db", &[]), ("net", &[]), ("zeta", &[])]);
    assert_eq!(build_order(&g), Ok(strings(&["db", "net", "app", "zeta"])));
}

#[test]
fn prerequisites_need_not_be_keys_and_duplicates_count_once() {
    let g = graph(&[("site", &["js", "css", "js"])]);
    assert_eq!(build_order(&g), Ok(strings(&["css", "js", "site"])));
}

#[test]
fn empty_graph() {
    assert_eq!(build_order(&BTreeMap::new()), Ok(vec![]));
}

#[test]
fn cycles_report_the_unbuilt_targets() {
    let g = graph(&[("a", &["b"]), ("b", &["a"]), ("c", &[])]);
    assert_eq!(build_order(&g), Err(strings(&["a", "b"])));
    let g = graph(&[("d", &["a"]), ("a", &["b"]), ("b", &["c"]), ("c", &["b"]), ("e", &[])]);
    assert_eq!(build_order(&g), Err(strings(&["a", "b", "c", "d"])));
    assert_eq!(build_order(&graph(&[("self", &["self"])])), Err(strings(&["self"])));
}
