use super::*;

fn pair(k: &str, v: &str) -> Option<Result<(String, String), String>> {
    Some(Ok((k.to_string(), v.to_string())))
}

#[test]
fn blank_lines_and_comments_are_skipped() {
    assert_eq!(parse_env_line(""), None);
    assert_eq!(parse_env_line("   "), None);
    assert_eq!(parse_env_line("# database"), None);
    assert_eq!(parse_env_line("   # indented comment"), None);
}

#[test]
fn plain_pairs() {
    assert_eq!(parse_env_line("PORT=8080"), pair("PORT", "8080"));
    assert_eq!(parse_env_line("EMPTY="), pair("EMPTY", ""));
    assert_eq!(parse_env_line("URL=postgres://h/db?a=b"), pair("URL", "postgres://h/db?a=b"));
}

#[test]
fn trims_and_unquotes() {
    assert_eq!(parse_env_line("  NAME =  \"My App\"  "), pair("NAME", "My App"));
    assert_eq!(parse_env_line("Q=\"\"x\"\""), pair("Q", "\"x\""));
    assert_eq!(parse_env_line("OPEN=\"abc"), pair("OPEN", "\"abc"));
}

#[test]
fn malformed_lines_are_errors() {
    assert_eq!(parse_env_line("novalue"), Some(Err("novalue".to_string())));
    assert_eq!(parse_env_line("  = x "), Some(Err("= x".to_string())));
}
