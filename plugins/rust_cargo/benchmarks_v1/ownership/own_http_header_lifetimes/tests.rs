use super::*;

const RAW: &str = "Host: example.org\r\nContent-Type: text/plain \r\nbroken line\r\nX-Id:42\r\n\r\nIgnored: body\r\n";

#[test]
fn parses_until_the_blank_line() {
    let hs = parse_headers(RAW);
    assert_eq!(
        hs,
        vec![
            Header { name: "Host", value: "example.org" },
            Header { name: "Content-Type", value: "text/plain" },
            Header { name: "X-Id", value: "42" },
        ]
    );
}

#[test]
fn lookup_is_case_insensitive() {
    let hs = parse_headers(RAW);
    assert_eq!(find(&hs, "content-type"), Some("text/plain"));
    assert_eq!(find(&hs, "ignored"), None);
}

#[test]
fn values_outlive_the_header_list() {
    let raw = String::from("Accept: */*\nHost: db.local\n");
    let host = {
        let hs = parse_headers(&raw);
        find(&hs, "HOST")
    };
    assert_eq!(host, Some("db.local"));
}

#[test]
fn empty_request() {
    assert!(parse_headers("").is_empty());
    assert!(parse_headers("\r\nHost: x\r\n").is_empty());
}
