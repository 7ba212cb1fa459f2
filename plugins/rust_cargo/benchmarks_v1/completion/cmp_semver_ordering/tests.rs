use super::*;
use std::cmp::Ordering;

fn v(major: u32, minor: u32, patch: u32, pre: Option<&str>) -> Version {
    Version { major, minor, patch, pre: pre.map(str::to_string) }
}

#[test]
fn numeric_fields_compare_in_order() {
    assert!(v(1, 2, 3, None) < v(1, 10, 0, None));
    assert!(v(2, 0, 0, None) > v(1, 99, 99, None));
    assert!(v(1, 0, 1, None) > v(1, 0, 0, None));
}

#[test]
fn a_prerelease_sorts_before_its_release() {
    assert!(v(1, 0, 0, Some("rc1")) < v(1, 0, 0, None));
    assert!(v(1, 0, 0, Some("rc1")) > v(0, 9, 9, None));
    assert!(v(1, 0, 1, Some("alpha")) > v(1, 0, 0, None));
}

#[test]
fn prereleases_compare_as_strings() {
    assert!(v(1, 0, 0, Some("alpha")) < v(1, 0, 0, Some("beta")));
    assert!(v(1, 0, 0, Some("rc10")) < v(1, 0, 0, Some("rc2")));
}

#[test]
fn equal_versions_are_equal() {
    assert_eq!(v(3, 1, 4, Some("rc1")).cmp(&v(3, 1, 4, Some("rc1"))), Ordering::Equal);
    assert_eq!(v(3, 1, 4, None).partial_cmp(&v(3, 1, 4, None)), Some(Ordering::Equal));
}

#[test]
fn sorting_a_release_list() {
    let mut list = vec![v(1, 1, 0, None), v(1, 0, 0, None), v(1, 1, 0, Some("rc1")), v(0, 9, 0, None)];
    list.sort();
    assert_eq!(list, vec![v(0, 9, 0, None), v(1, 0, 0, None), v(1, 1, 0, Some("rc1")), v(1, 1, 0, None)]);
}
