use super::*;
use std::error::Error;

fn parse_int_error(text: &str) -> std::num::ParseIntError {
    text.parse::<u16>().unwrap_err()
}

#[test]
fn full_config_with_comments_and_spaces() {
    let text = "# web\n\n host = example.org \nport= 9000\nworkers =16\n";
    assert_eq!(parse_config(text), Ok(ServerConfig { host: "example.org".to_string(), port: 9000, workers: 16 }));
}

#[test]
fn defaults_and_overrides() {
    assert_eq!(parse_config("host=a\nhost=b"), Ok(ServerConfig { host: "b".to_string(), port: 8080, workers: 4 }));
}

#[test]
fn errors_are_reported() {
    assert_eq!(parse_config("host=a\n\nlisten 80"), Err(ConfigError::MissingEquals(3)));
    assert_eq!(parse_config("host=a\ntimeout=3"), Err(ConfigError::UnknownKey("timeout".to_string())));
    assert_eq!(parse_config("port=99999\nhost=a"), Err(ConfigError::BadNumber(parse_int_error("99999"))));
    assert_eq!(parse_config("workers=-1\nhost=a"), Err(ConfigError::BadNumber("-1".parse::<u32>().unwrap_err())));
    assert_eq!(parse_config("port=80"), Err(ConfigError::MissingHost));
    assert_eq!(parse_config(""), Err(ConfigError::MissingHost));
}

#[test]
fn display_messages() {
    assert_eq!(ConfigError::MissingEquals(7).to_string(), "line 7: expected key=value");
    assert_eq!(ConfigError::UnknownKey("tls".to_string()).to_string(), "unknown key `tls`");
    let inner = parse_int_error("x");
    assert_eq!(ConfigError::BadNumber(inner.clone()).to_string(), format!("invalid number: {}", inner));
    assert_eq!(ConfigError::MissingHost.to_string(), "missing host");
}

#[test]
fn error_source_and_from() {
    let err: ConfigError = parse_int_error("").into();
    assert_eq!(err, ConfigError::BadNumber(parse_int_error("")));
    assert_eq!(err.source().map(|s| s.to_string()), Some(parse_int_error("").to_string()));
    assert!(ConfigError::MissingHost.source().is_none());
    let boxed: Box<dyn Error> = Box::new(ConfigError::UnknownKey("k".to_string()));
    assert_eq!(boxed.to_string(), "unknown key `k`");
}
