use super::*;

#[test]
fn doubles_until_the_cap() {
    assert_eq!(backoff_delays(100, 2, 1_000, 6), vec![100, 200, 400, 800, 1_000, 1_000]);
}

#[test]
fn zero_retries_no_delays() {
    assert!(backoff_delays(100, 2, 1_000, 0).is_empty());
}

#[test]
fn base_above_the_cap_is_capped() {
    assert_eq!(backoff_delays(5_000, 3, 1_000, 3), vec![1_000, 1_000, 1_000]);
}

#[test]
fn factor_one_is_constant() {
    assert_eq!(backoff_delays(250, 1, 10_000, 4), vec![250, 250, 250, 250]);
}

#[test]
fn multiplication_saturates() {
    let half = u64::MAX / 2;
    assert_eq!(backoff_delays(half, 4, u64::MAX, 3), vec![half, u64::MAX, u64::MAX]);
}
