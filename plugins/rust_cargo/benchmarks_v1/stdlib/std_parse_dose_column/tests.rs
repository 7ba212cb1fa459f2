use super::*;

#[test]
fn empty_column() {
    assert_eq!(parse_doses(&[]), Ok(vec![]));
}

#[test]
fn both_units() {
    assert_eq!(parse_doses(&["250 mg", "2 g", "0 mg"]), Ok(vec![250, 2_000, 0]));
}

#[test]
fn first_bad_entry_is_reported() {
    assert_eq!(parse_doses(&["5 mg", "x mg", "3 kg"]), Err(1));
    assert_eq!(parse_doses(&["3 kg", "x mg"]), Err(0));
}

#[test]
fn format_must_be_exact() {
    assert_eq!(parse_doses(&["5mg"]), Err(0));
    assert_eq!(parse_doses(&["1 mg", "5  mg"]), Err(1));
    assert_eq!(parse_doses(&["1 mg", "1 mg", "-5 mg"]), Err(2));
    assert_eq!(parse_doses(&["5 MG"]), Err(0));
}

#[test]
fn overflow_is_invalid() {
    assert_eq!(parse_doses(&["18446744073709551615 mg"]), Ok(vec![u64::MAX]));
    assert_eq!(parse_doses(&["18446744073709552 g"]), Err(0));
}
