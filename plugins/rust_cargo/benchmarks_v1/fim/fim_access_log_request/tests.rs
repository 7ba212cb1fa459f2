use super::*;

fn req(ip: &str, method: &str, path: &str, status: u16, bytes: u64) -> Request {
    Request { ip: ip.to_string(), method: method.to_string(), path: path.to_string(), status, bytes }
}

#[test]
fn parses_a_request() {
    assert_eq!(
        parse_request("10.0.0.1 GET /index.html 200 5120"),
        Ok(req("10.0.0.1", "GET", "/index.html", 200, 5120))
    );
}

#[test]
fn dash_means_no_body() {
    assert_eq!(parse_request("::1  HEAD\t/health 204 -"), Ok(req("::1", "HEAD", "/health", 204, 0)));
}

#[test]
fn wrong_number_of_fields() {
    assert_eq!(parse_request("a b c"), Err(LogError::FieldCount(3)));
    assert_eq!(parse_request("a b c 200 1 extra"), Err(LogError::FieldCount(6)));
    assert_eq!(parse_request(""), Err(LogError::FieldCount(0)));
}

#[test]
fn bad_status() {
    assert_eq!(parse_request("x GET / 99 1"), Err(LogError::BadStatus("99".to_string())));
    assert_eq!(parse_request("x GET / ok 1"), Err(LogError::BadStatus("ok".to_string())));
}

#[test]
fn bad_size() {
    assert_eq!(parse_request("x GET / 200 12k"), Err(LogError::BadBytes("12k".to_string())));
    assert_eq!(parse_request("x GET / 200 -5"), Err(LogError::BadBytes("-5".to_string())));
    assert_eq!(parse_request("x GET / 200 --"), Err(LogError::BadBytes("--".to_string())));
}
