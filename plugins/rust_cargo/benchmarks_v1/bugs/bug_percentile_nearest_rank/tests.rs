use super::*;

#[test]
fn median_of_four() {
    assert_eq!(percentile(&[40, 10, 30, 20], 50), Some(20));
}

#[test]
fn ninetieth_of_ten() {
    let samples: Vec<u32> = (1..=10).map(|v| v * 100).collect();
    assert_eq!(percentile(&samples, 90), Some(900));
    assert_eq!(percentile(&samples, 91), Some(1000));
    assert_eq!(percentile(&samples, 100), Some(1000));
    assert_eq!(percentile(&samples, 1), Some(100));
}

#[test]
fn single_sample() {
    assert_eq!(percentile(&[7], 1), Some(7));
    assert_eq!(percentile(&[7], 100), Some(7));
}

#[test]
fn invalid_requests() {
    assert_eq!(percentile(&[], 50), None);
    assert_eq!(percentile(&[1, 2], 0), None);
    assert_eq!(percentile(&[1, 2], 101), None);
}
