use super::*;
use std::cmp::Ordering;

#[test]
fn components_compare_as_numbers() {
    assert_eq!(compare_versions("1.10.0", "1.9.3"), Some(Ordering::Greater));
    assert_eq!(compare_versions("2.0", "10.0"), Some(Ordering::Less));
}

#[test]
fn missing_components_and_leading_zeros() {
    assert_eq!(compare_versions("1.2", "1.2.0"), Some(Ordering::Equal));
    assert_eq!(compare_versions("1.02", "1.2"), Some(Ordering::Equal));
    assert_eq!(compare_versions("1.2", "1.2.1"), Some(Ordering::Less));
}

#[test]
fn malformed_versions() {
    assert_eq!(compare_versions("1..2", "1.2"), None);
    assert_eq!(compare_versions("1.2", "1.x"), None);
    assert_eq!(newest(&["1.0", "beta"]), None);
}

#[test]
fn newest_version() {
    assert_eq!(newest(&["0.9.12", "0.10.1", "0.10.0", "0.9.9"]), Some("0.10.1"));
    assert_eq!(newest(&["3.1", "3.1.0"]), Some("3.1"));
    assert_eq!(newest(&[]), None);
}
