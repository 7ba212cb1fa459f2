use std::collections::{BTreeMap, BTreeSet};

/// `deps` lists `(package, dependency)` pairs of a workspace. Returns, for
/// every package that appears on either side, how many distinct packages
/// depend on it directly. Duplicate pairs count once, and a package that
/// depends on itself is ignored.
pub fn dependents_count(deps: &[(&str, &str)]) -> BTreeMap<String, usize> {
    let mut counts: BTreeMap<String, usize> = deps
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .map(|name| (name.to_string(), 0))
        .collect();
    let mut seen = BTreeSet::new();
    deps.iter()
        .filter(|(a, b)| a != b)
