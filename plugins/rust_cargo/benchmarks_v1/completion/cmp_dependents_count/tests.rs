use super::*;
use std::collections::BTreeMap;

fn map(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

#[test]
fn no_pairs_no_packages() {
    assert!(dependents_count(&[]).is_empty());
}

#[test]
fn counts_direct_dependents() {
    let deps = [("app", "log"), ("app", "http"), ("http", "log"), ("cli", "log")];
    assert_eq!(dependents_count(&deps), map(&[("app", 0), ("cli", 0), ("http", 1), ("log", 3)]));
}

#[test]
fn duplicate_pairs_count_once() {
    let deps = [("app", "log"), ("app", "log"), ("tool", "log")];
    assert_eq!(dependents_count(&deps), map(&[("app", 0), ("log", 2), ("tool", 0)]));
}

#[test]
fn self_dependency_is_listed_but_not_counted() {
    assert_eq!(dependents_count(&[("core", "core")]), map(&[("core", 0)]));
    assert_eq!(dependents_count(&[("core", "core"), ("app", "core")]), map(&[("app", 0), ("core", 1)]));
}
