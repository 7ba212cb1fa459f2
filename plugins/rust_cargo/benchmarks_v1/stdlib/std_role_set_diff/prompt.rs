use std::collections::HashSet;

/// The difference between two sets of roles granted to a user.
#[derive(Debug, PartialEq, Eq)]
pub struct RoleDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub kept: Vec<String>,
}

/// Compares the roles a user had (`before`) with the roles they have now
/// (`after`): `added` are only in `after`, `removed` only in `before`, `kept`
/// in both. Duplicates in the inputs count once, and each list of the result
/// is sorted alphabetically.
pub fn diff_roles(before: &[&str], after: &[&str]) -> RoleDiff {
    let before: HashSet<&str> = before.iter().copied().collect();
    let after: HashSet<&str> = after.iter().copied().collect();
