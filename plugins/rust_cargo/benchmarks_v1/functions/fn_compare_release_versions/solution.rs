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
    Some(parse_version(a)?.cmp(&parse_version(b)?))
}

fn parse_version(text: &str) -> Option<[u64; 3]> {
    let mut parts = text.split('.');
    let mut version = [0u64; 3];
    for slot in version.iter_mut() {
        let part = parts.next()?;
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *slot = part.parse().ok()?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some(version)
}
