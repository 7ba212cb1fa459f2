use super::*;

#[test]
fn no_readings_no_summary() {
    assert_eq!(summarize(&[], 0), None);
}

#[test]
fn summarises_a_day() {
    assert_eq!(
        summarize(&[215, -30, 180, 90], 100),
        Some(Summary { min: -30, max: 215, mean: 113, above: 2 })
    );
}

#[test]
fn negative_mean_rounds_toward_zero() {
    assert_eq!(summarize(&[-15, -20], -20), Some(Summary { min: -20, max: -15, mean: -17, above: 1 }));
}

#[test]
fn threshold_is_exclusive() {
    assert_eq!(summarize(&[5], 5), Some(Summary { min: 5, max: 5, mean: 5, above: 0 }));
}

#[test]
fn large_readings_do_not_overflow_the_mean() {
    let s = summarize(&[i32::MAX, i32::MAX, i32::MAX - 3], 0).unwrap();
    assert_eq!(s.mean, i32::MAX - 1);
    assert_eq!(s.above, 3);
}
