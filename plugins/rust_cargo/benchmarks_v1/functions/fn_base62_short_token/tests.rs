use super::*;

#[test]
fn zero_is_a_single_digit() {
    assert_eq!(to_base62(0), "0");
}

#[test]
fn single_digits_use_three_alphabets() {
    assert_eq!(to_base62(9), "9");
    assert_eq!(to_base62(10), "a");
    assert_eq!(to_base62(35), "z");
    assert_eq!(to_base62(36), "A");
    assert_eq!(to_base62(61), "Z");
}

#[test]
fn multiple_digits() {
    assert_eq!(to_base62(62), "10");
    assert_eq!(to_base62(62 * 62 - 1), "ZZ");
    assert_eq!(to_base62(62 * 62 * 62), "1000");
    assert_eq!(to_base62(1_000_000), "4c92");
}

#[test]
fn largest_id() {
    assert_eq!(to_base62(u64::MAX), "lYGhA16ahyf");
}
