// Task: implement `Ord` and `PartialOrd` for `crate::version::Version` (and
// `Ord`/`PartialOrd` for `Ident` as needed) with release precedence:
// compare major, minor, patch numerically; if equal, a version with a
// pre-release is lower than the one without; otherwise compare the
// pre-release identifiers left to right: numeric ones by value, alphanumeric
// ones by ASCII order, numeric lower than alphanumeric, and when all shared
// identifiers are equal the shorter list is lower. Also add
// `pub fn latest(versions: &[Version]) -> Option<&Version>` returning the
// greatest version, ignoring pre-releases unless there is nothing else.
