// Task: implement `Ord` and `PartialOrd` for `crate::version::Version` (and
// `Ord`/`PartialOrd` for `Ident` as needed) with release precedence:
// compare major, minor, patch numerically; if equal, a version with a
// pre-release is lower than the one without; otherwise compare the
// pre-release identifiers left to right: numeric ones by value, alphanumeric
// ones by ASCII order, numeric lower than alphanumeric, and when all shared
// identifiers are equal the shorter list is lower. Also add
// `pub fn latest(versions: &[Version]) -> Option<&Version>` returning the
// greatest version, ignoring pre-releases unless there is nothing else.
use crate::version::{Ident, Version};
use std::cmp::Ordering;

impl Ord for Ident {
    fn cmp(&self, other: &Ident) -> Ordering {
        match (self, other) {
            (Ident::Numeric(a), Ident::Numeric(b)) => a.cmp(b),
            (Ident::Alpha(a), Ident::Alpha(b)) => a.cmp(b),
            (Ident::Numeric(_), Ident::Alpha(_)) => Ordering::Less,
            (Ident::Alpha(_), Ident::Numeric(_)) => Ordering::Greater,
        }
    }
}

impl PartialOrd for Ident {
    fn partial_cmp(&self, other: &Ident) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => self.pre.cmp(&other.pre),
            })
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

pub fn latest(versions: &[Version]) -> Option<&Version> {
    versions.iter().filter(|v| v.pre.is_empty()).max().or_else(|| versions.iter().max())
}
