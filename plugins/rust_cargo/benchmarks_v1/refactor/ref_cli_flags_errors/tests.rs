use super::*;

#[test]
fn defaults_and_full_set() {
    assert_eq!(parse_args(&[]), Ok(Options { host: "localhost".to_string(), port: 8080, verbose: false }));
    assert_eq!(
        parse_args(&["--verbose", "--port", "443", "--host", "api.internal"]),
        Ok(Options { host: "api.internal".to_string(), port: 443, verbose: true })
    );
}

#[test]
fn unknown_flag() {
    assert_eq!(parse_args(&["--host", "a", "-v"]), Err(ArgError::UnknownFlag("-v".to_string())));
}

#[test]
fn missing_values() {
    assert_eq!(parse_args(&["--port"]), Err(ArgError::MissingValue("--port".to_string())));
    assert_eq!(parse_args(&["--verbose", "--host"]), Err(ArgError::MissingValue("--host".to_string())));
}

#[test]
fn invalid_ports() {
    assert_eq!(parse_args(&["--port", "0"]), Err(ArgError::InvalidPort("0".to_string())));
    assert_eq!(parse_args(&["--port", "65536"]), Err(ArgError::InvalidPort("65536".to_string())));
    assert_eq!(parse_args(&["--port", "http"]), Err(ArgError::InvalidPort("http".to_string())));
}

#[test]
fn repeated_flags_and_first_error_wins() {
    assert_eq!(parse_args(&["--verbose", "--verbose"]), Err(ArgError::Repeated("--verbose".to_string())));
    assert_eq!(parse_args(&["--port", "1", "--port", "2"]), Err(ArgError::Repeated("--port".to_string())));
    assert_eq!(parse_args(&["--bogus", "--port", "x"]), Err(ArgError::UnknownFlag("--bogus".to_string())));
}

#[test]
fn value_that_looks_like_a_flag_is_still_a_value() {
    assert_eq!(parse_args(&["--host", "--verbose"]).map(|o| o.host), Ok("--verbose".to_string()));
}
