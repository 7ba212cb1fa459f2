use super::*;

#[test]
fn plain_fields() {
    assert_eq!(split_record("id,name,qty"), vec!["id", "name", "qty"]);
}

#[test]
fn quoted_fields_keep_commas_and_quotes() {
    assert_eq!(split_record(r#"7,"Bolt, M6","say ""hi""""#), vec!["7", "Bolt, M6", r#"say "hi""#]);
}

#[test]
fn empty_fields_are_kept() {
    assert_eq!(split_record("a,,b,"), vec!["a", "", "b", ""]);
    assert_eq!(split_record(",,"), vec!["", "", ""]);
}

#[test]
fn empty_line_is_one_empty_field() {
    assert_eq!(split_record(""), vec![""]);
    assert_eq!(split_record(r#""""#), vec![""]);
}
