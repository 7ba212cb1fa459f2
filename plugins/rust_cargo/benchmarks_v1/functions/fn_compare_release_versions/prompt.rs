use std::cmp::Ordering;

/// Compares two release versions written as `major.minor.patch` (for example
/// `"1.10.0"`), numerically and component by component, so `1.10.0` is newer
/// than `1.9.3`.
///
/// Each of the exactly three components is a non-empty run of ASCII digits
/// whose value fits in `u64` (leading zeros are allowed and do not matter).
/// Returns `None` if either version is malformed: a wrong number of
/// components, an empty component, or any other character (signs, spaces,
/// suffixes such as `-beta`).
pub fn compare_versions(a: &str, b: &str) -> Option<Ordering> {
