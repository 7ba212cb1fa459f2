use crate::ordering::latest;
use crate::version::Version;

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

#[test]
fn numeric_parts_compare_as_numbers() {
    assert!(v("1.10.0") > v("1.9.9"));
    assert!(v("2.0.0") > v("1.99.99"));
    assert!(v("0.0.1") < v("0.1.0"));
}

#[test]
fn pre_release_precedence() {
    let mut list: Vec<Version> = ["1.0.0", "1.0.0-rc.1", "1.0.0-alpha.beta", "1.0.0-beta.11", "1.0.0-alpha", "1.0.0-beta.2", "1.0.0-alpha.1", "1.0.0-beta"]
        .iter()
        .map(|s| v(s))
        .collect();
    list.sort();
    let sorted: Vec<Version> = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"]
        .iter()
        .map(|s| v(s))
        .collect();
    assert_eq!(list, sorted);
}

#[test]
fn equal_versions() {
    assert_eq!(v("3.1.4-x.7").cmp(&v("3.1.4-x.7")), std::cmp::Ordering::Equal);
    assert!(v("3.1.4") >= v("3.1.4"));
}

#[test]
fn latest_prefers_releases() {
    let list = vec![v("1.2.0"), v("2.0.0-rc.1"), v("1.10.3"), v("1.10.3-beta")];
    assert_eq!(latest(&list), Some(&v("1.10.3")));
    let pre_only = vec![v("0.1.0-a"), v("0.1.0-b")];
    assert_eq!(latest(&pre_only), Some(&v("0.1.0-b")));
    assert_eq!(latest(&[]), None);
}
