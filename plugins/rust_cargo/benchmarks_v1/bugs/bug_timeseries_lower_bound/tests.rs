use super::*;

const TS: [u64; 6] = [10, 20, 20, 30, 40, 50];

#[test]
fn finds_the_first_match() {
    assert_eq!(first_at_or_after(&TS, 20), 1);
    assert_eq!(first_at_or_after(&TS, 21), 3);
    assert_eq!(first_at_or_after(&TS, 0), 0);
}

#[test]
fn past_the_last_timestamp() {
    assert_eq!(first_at_or_after(&TS, 50), 5);
    assert_eq!(first_at_or_after(&TS, 51), 6);
    assert_eq!(first_at_or_after(&[5], 6), 1);
}

#[test]
fn empty_series() {
    assert_eq!(first_at_or_after(&[], 3), 0);
    assert_eq!(count_between(&[], 0, 100), 0);
}

#[test]
fn counts_half_open_ranges() {
    assert_eq!(count_between(&TS, 20, 40), 3);
    assert_eq!(count_between(&TS, 0, 1_000), 6);
    assert_eq!(count_between(&TS, 45, 60), 1);
    assert_eq!(count_between(&TS, 40, 40), 0);
    assert_eq!(count_between(&TS, 40, 10), 0);
}
