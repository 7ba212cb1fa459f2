use super::*;
use std::cmp::Ordering;

#[test]
fn equal_versions() {
    assert_eq!(compare_versions("1.2.3", "1.2.3"), Some(Ordering::Equal));
    assert_eq!(compare_versions("1.02.0", "1.2.000"), Some(Ordering::Equal));
}

#[test]
fn numeric_not_lexicographic() {
    assert_eq!(compare_versions("1.10.0", "1.9.3"), Some(Ordering::Greater));
    assert_eq!(compare_versions("0.0.9", "0.0.10"), Some(Ordering::Less));
}

#[test]
fn earlier_components_dominate() {
    assert_eq!(compare_versions("2.0.0", "1.99.99"), Some(Ordering::Greater));
    assert_eq!(compare_versions("3.1.0", "3.2.0"), Some(Ordering::Less));
}

#[test]
fn malformed_versions() {
    for bad in ["", "1.2", "1.2.3.4", "1..3", "1.2.", "v1.2.3", "1.2.3-beta", "+1.2.3", "1. 2.3", "1.2.x"] {
        assert_eq!(compare_versions(bad, "1.0.0"), None, "{:?}", bad);
        assert_eq!(compare_versions("1.0.0", bad), None, "{:?}", bad);
    }
}

#[test]
fn large_components() {
    assert_eq!(compare_versions("18446744073709551615.0.0", "1.0.0"), Some(Ordering::Greater));
    assert_eq!(compare_versions("18446744073709551616.0.0", "1.0.0"), None);
}
