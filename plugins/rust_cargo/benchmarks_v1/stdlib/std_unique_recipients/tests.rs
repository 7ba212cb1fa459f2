use super::*;

#[test]
fn empty_list() {
    assert!(unique_recipients(&[]).is_empty());
}

#[test]
fn first_occurrence_wins() {
    assert_eq!(
        unique_recipients(&["Ana@Example.com", "bo@example.com", "ana@example.COM", "cy@example.com", "bo@example.com"]),
        vec!["Ana@Example.com", "bo@example.com", "cy@example.com"]
    );
}

#[test]
fn whitespace_is_trimmed_and_blanks_dropped() {
    assert_eq!(unique_recipients(&["  x@y.z ", "", "   ", "x@y.z", "\tw@y.z\n"]), vec!["x@y.z", "w@y.z"]);
}

#[test]
fn distinct_addresses_keep_order() {
    assert_eq!(unique_recipients(&["c@d", "a@b", "b@c"]), vec!["c@d", "a@b", "b@c"]);
}
