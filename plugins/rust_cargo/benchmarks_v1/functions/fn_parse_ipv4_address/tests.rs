use super::*;

#[test]
fn valid_addresses() {
    assert_eq!(parse_ipv4("192.168.0.1"), Some(0xC0A8_0001));
    assert_eq!(parse_ipv4("10.0.0.255"), Some(0x0A00_00FF));
}

#[test]
fn extremes() {
    assert_eq!(parse_ipv4("0.0.0.0"), Some(0));
    assert_eq!(parse_ipv4("255.255.255.255"), Some(u32::MAX));
}

#[test]
fn wrong_number_of_octets() {
    for bad in ["", "1.2.3", "1.2.3.4.5", "1.2.3.", ".1.2.3", "1..2.3"] {
        assert_eq!(parse_ipv4(bad), None, "{:?}", bad);
    }
}

#[test]
fn bad_octets() {
    for bad in ["256.0.0.1", "1.2.3.1000", "01.2.3.4", "1.2.3.00", "1.2.3.-4", "1.2.3.+4", "1.2.3.4 ", "a.b.c.d", "1.2.3.0x1"] {
        assert_eq!(parse_ipv4(bad), None, "{:?}", bad);
    }
}
