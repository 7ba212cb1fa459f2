use super::*;

fn fields(list: &[&str]) -> Option<Vec<String>> {
    Some(list.iter().map(|s| s.to_string()).collect())
}

#[test]
fn plain_fields() {
    assert_eq!(split_csv_record("sku,qty,price"), fields(&["sku", "qty", "price"]));
    assert_eq!(split_csv_record(" a , b"), fields(&[" a ", " b"]));
}

#[test]
fn empty_fields() {
    assert_eq!(split_csv_record(""), fields(&[""]));
    assert_eq!(split_csv_record("a,,"), fields(&["a", "", ""]));
    assert_eq!(split_csv_record(","), fields(&["", ""]));
}

#[test]
fn quoted_fields() {
    assert_eq!(split_csv_record("\"Smith, John\",42"), fields(&["Smith, John", "42"]));
    assert_eq!(split_csv_record("\"\""), fields(&[""]));
    assert_eq!(split_csv_record("x,\"\",y"), fields(&["x", "", "y"]));
    assert_eq!(split_csv_record("\"ünï,cødé\""), fields(&["ünï,cødé"]));
}

#[test]
fn doubled_quotes_are_literal() {
    assert_eq!(split_csv_record("\"say \"\"hi\"\"\",end"), fields(&["say \"hi\"", "end"]));
    assert_eq!(split_csv_record("\"\"\"\""), fields(&["\""]));
}

#[test]
fn malformed_lines() {
    assert_eq!(split_csv_record("\"abc"), None);
    assert_eq!(split_csv_record("a,\"b"), None);
    assert_eq!(split_csv_record("ab\"c"), None);
    assert_eq!(split_csv_record("\"a\"b,c"), None);
    assert_eq!(split_csv_record("\"a\" ,c"), None);
    assert_eq!(split_csv_record("\"a\"\""), None);
}
