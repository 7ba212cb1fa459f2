use super::*;

#[test]
fn valid_config_parses() {
    let cfg = parse_config("# server\nhost = example.org\n\nport=8080\nempty =\n").unwrap();
    assert_eq!(cfg.values.len(), 3);
    assert_eq!(cfg.values["host"], "example.org");
    assert_eq!(cfg.values["port"], "8080");
    assert_eq!(cfg.values["empty"], "");
}

#[test]
fn missing_equals_reports_line() {
    assert_eq!(parse_config("a = 1\n\njust words\n"), Err(ConfigError::MissingEquals { line: 3 }));
}

#[test]
fn empty_key_reports_line() {
    assert_eq!(parse_config("# c\n = value"), Err(ConfigError::EmptyKey { line: 2 }));
}

#[test]
fn duplicate_key_is_named() {
    assert_eq!(parse_config("x=1\ny=2\n x = 3"), Err(ConfigError::DuplicateKey("x".to_string())));
}

#[test]
fn value_may_contain_equals() {
    let cfg = parse_config("query = a=b").unwrap();
    assert_eq!(cfg.values["query"], "a=b");
}

#[test]
fn empty_input_is_empty_config() {
    assert_eq!(parse_config(""), Ok(Config::default()));
}
