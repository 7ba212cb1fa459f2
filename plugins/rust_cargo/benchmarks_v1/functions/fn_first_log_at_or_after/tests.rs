use super::*;

#[test]
fn empty_log() {
    assert_eq!(first_at_or_after(&[], 10), 0);
}

#[test]
fn exact_and_between_matches() {
    let log = [10, 20, 30, 40];
    assert_eq!(first_at_or_after(&log, 30), 2);
    assert_eq!(first_at_or_after(&log, 25), 2);
    assert_eq!(first_at_or_after(&log, 11), 1);
}

#[test]
fn before_and_after_everything() {
    let log = [10, 20, 30];
    assert_eq!(first_at_or_after(&log, 0), 0);
    assert_eq!(first_at_or_after(&log, 10), 0);
    assert_eq!(first_at_or_after(&log, 31), 3);
    assert_eq!(first_at_or_after(&log, u64::MAX), 3);
}

#[test]
fn duplicates_give_the_first_of_the_run() {
    let log = [5, 7, 7, 7, 7, 9];
    assert_eq!(first_at_or_after(&log, 7), 1);
    assert_eq!(first_at_or_after(&log, 8), 5);
}

#[test]
fn large_log() {
    let log: Vec<u64> = (0..100_000).map(|i| i * 3).collect();
    assert_eq!(first_at_or_after(&log, 150_001), 50_001);
    assert_eq!(first_at_or_after(&log, 299_997), 99_999);
}
