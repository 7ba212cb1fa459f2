use super::*;

#[test]
fn single_units() {
    assert_eq!(parse_duration_secs("45s"), Some(45));
    assert_eq!(parse_duration_secs("3m"), Some(180));
    assert_eq!(parse_duration_secs("2h"), Some(7_200));
    assert_eq!(parse_duration_secs("1d"), Some(86_400));
    assert_eq!(parse_duration_secs("0s"), Some(0));
}

#[test]
fn combined_units_with_gaps() {
    assert_eq!(parse_duration_secs("1h30m"), Some(5_400));
    assert_eq!(parse_duration_secs("2d4h"), Some(2 * 86_400 + 4 * 3_600));
    assert_eq!(parse_duration_secs("1d1s"), Some(86_401));
    assert_eq!(parse_duration_secs("1d2h3m4s"), Some(86_400 + 7_200 + 180 + 4));
    assert_eq!(parse_duration_secs("90m"), Some(5_400));
}

#[test]
fn malformed_text_is_rejected() {
    for bad in ["", "h", "10", "1h30", "1x", "1 h", "-1s", "+1s", "1h 30m", "s1"] {
        assert_eq!(parse_duration_secs(bad), None, "{:?}", bad);
    }
}

#[test]
fn unit_order_and_repetition_are_enforced() {
    assert_eq!(parse_duration_secs("1m1h"), None);
    assert_eq!(parse_duration_secs("1h1h"), None);
    assert_eq!(parse_duration_secs("5s1d"), None);
}

#[test]
fn overflow_is_rejected() {
    assert_eq!(parse_duration_secs("18446744073709551615s"), Some(u64::MAX));
    assert_eq!(parse_duration_secs("1m18446744073709551615s"), None);
    assert_eq!(parse_duration_secs("999999999999999d"), None);
    assert_eq!(parse_duration_secs("99999999999999999999s"), None);
}
