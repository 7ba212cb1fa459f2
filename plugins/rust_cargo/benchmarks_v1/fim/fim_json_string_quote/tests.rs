use super::*;

#[test]
fn plain_text_is_only_quoted() {
    assert_eq!(json_quote("plain"), "\"plain\"");
    assert_eq!(json_quote(""), "\"\"");
}

#[test]
fn quotes_and_backslashes_are_escaped() {
    assert_eq!(json_quote(r#"a"b\c"#), r#""a\"b\\c""#);
}

#[test]
fn whitespace_controls_use_short_escapes() {
    assert_eq!(json_quote("l1\nl2\tx\r"), r#""l1\nl2\tx\r""#);
}

#[test]
fn other_controls_use_unicode_escapes() {
    assert_eq!(json_quote("\u{1}\u{1f}\u{0}"), r#""\u0001\u001f\u0000""#);
    assert_eq!(json_quote("a\u{8}b"), r#""a\u0008b""#);
}

#[test]
fn non_ascii_passes_through() {
    assert_eq!(json_quote("é✓\u{7f} "), "\"é✓\u{7f} \"");
}
