use super::*;

#[test]
fn parses_ordinary_addresses() {
    assert_eq!(parse_ipv4("192.168.0.1"), Some(0xC0A8_0001));
    assert_eq!(parse_ipv4("10.0.0.255"), Some(0x0A00_00FF));
}

#[test]
fn extremes() {
    assert_eq!(parse_ipv4("0.0.0.0"), Some(0));
    assert_eq!(parse_ipv4("255.255.255.255"), Some(u32::MAX));
}

#[test]
fn leading_zeros_are_allowed() {
    assert_eq!(parse_ipv4("010.001.0.0007"), Some(0x0A01_0007));
}

#[test]
fn wrong_number_of_parts() {
    assert_eq!(parse_ipv4("1.2.3"), None);
    assert_eq!(parse_ipv4("1.2.3.4.5"), None);
    assert_eq!(parse_ipv4("1.2.3.4."), None);
    assert_eq!(parse_ipv4(""), None);
}

#[test]
fn bad_parts() {
    assert_eq!(parse_ipv4("256.0.0.1"), None);
    assert_eq!(parse_ipv4("1..3.4"), None);
    assert_eq!(parse_ipv4(" 1.2.3.4"), None);
    assert_eq!(parse_ipv4("+1.2.3.4"), None);
    assert_eq!(parse_ipv4("1.2.3.99999999999"), None);
}
