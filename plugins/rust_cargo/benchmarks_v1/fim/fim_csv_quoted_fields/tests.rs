use super::*;

fn fields(names: &[&str]) -> Option<Vec<String>> {
    Some(names.iter().map(|s| s.to_string()).collect())
}

#[test]
fn plain_fields() {
    assert_eq!(split_record("a,b,c"), fields(&["a", "b", "c"]));
    assert_eq!(split_record(""), fields(&[""]));
    assert_eq!(split_record("a,"), fields(&["a", ""]));
    assert_eq!(split_record("ab\"c,d"), fields(&["ab\"c", "d"]));
}

#[test]
fn quoted_fields_may_hold_commas() {
    assert_eq!(split_record("\"x, y\",z"), fields(&["x, y", "z"]));
    assert_eq!(split_record("1,\"Main St, 4\""), fields(&["1", "Main St, 4"]));
}

#[test]
fn doubled_quotes_are_unescaped() {
    assert_eq!(split_record("\"say \"\"hi\"\"\",2"), fields(&["say \"hi\"", "2"]));
    assert_eq!(split_record("\"\"\"\""), fields(&["\""]));
}

#[test]
fn empty_quoted_fields() {
    assert_eq!(split_record("\"\""), fields(&[""]));
    assert_eq!(split_record("\"\",\"\""), fields(&["", ""]));
}

#[test]
fn malformed_records() {
    assert_eq!(split_record("\"abc"), None);
    assert_eq!(split_record("a,\"b"), None);
    assert_eq!(split_record("\"ab\"c,d"), None);
}
