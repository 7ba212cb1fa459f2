// Task: a package manager compares dotted version strings; `compare_versions`
// and `newest` must behave as their doc comments say. The code compiles but
// has a bug. Fix it and return the whole corrected file.
use std::cmp::Ordering;

/// The numeric components of a version; None if a component is empty or not
/// made of ASCII digits only.
fn components(version: &str) -> Option<Vec<u64>> {
    version
        .split('.')
        .map(|part| {
            if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
                part.parse().ok()
            } else {
                None
            }
        })
        .collect()
}

/// Compares two versions such as "1.10.2" numerically, component by
/// component; a missing component counts as zero, so "1.2" equals "1.2.0"
/// and "1.02" equals "1.2". None if either version is malformed.
pub fn compare_versions(a: &str, b: &str) -> Option<Ordering> {
    let pa = components(a)?;
    let pb = components(b)?;
    for i in 0..pa.len().max(pb.len()) {
        let x = pa.get(i).copied().unwrap_or(0);
        let y = pb.get(i).copied().unwrap_or(0);
        match x.cmp(&y) {
            Ordering::Equal => {}
            other => return Some(other),
        }
    }
    Some(Ordering::Equal)
}

/// The highest of `versions` (the first of equal ones); None if the list is
/// empty or any version is malformed.
pub fn newest<'a>(versions: &[&'a str]) -> Option<&'a str> {
    let mut best: Option<&'a str> = None;
    for &v in versions {
        components(v)?;
        match best {
            Some(b) if compare_versions(v, b)? != Ordering::Greater => {}
            _ => best = Some(v),
        }
    }
    best
}
