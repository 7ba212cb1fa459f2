use super::*;

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn no_roles_at_all() {
    assert_eq!(diff_roles(&[], &[]), RoleDiff { added: vec![], removed: vec![], kept: vec![] });
}

#[test]
fn mixed_changes_are_sorted() {
    let diff = diff_roles(&["viewer", "billing", "admin"], &["support", "viewer", "auditor", "billing"]);
    assert_eq!(diff.added, strings(&["auditor", "support"]));
    assert_eq!(diff.removed, strings(&["admin"]));
    assert_eq!(diff.kept, strings(&["billing", "viewer"]));
}

#[test]
fn duplicates_count_once() {
    let diff = diff_roles(&["a", "a", "b"], &["b", "b", "c", "c"]);
    assert_eq!(diff, RoleDiff { added: strings(&["c"]), removed: strings(&["a"]), kept: strings(&["b"]) });
}

#[test]
fn all_new_or_all_gone() {
    assert_eq!(diff_roles(&[], &["z", "y"]).added, strings(&["y", "z"]));
    assert_eq!(diff_roles(&["z", "y"], &[]).removed, strings(&["y", "z"]));
}
