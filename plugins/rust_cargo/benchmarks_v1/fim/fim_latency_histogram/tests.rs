use super::*;

#[test]
fn bounds_are_inclusive() {
    let latencies = [0, 1, 10, 11, 50, 99, 100, 101, 5_000];
    assert_eq!(histogram(&latencies, &[10, 50, 100]), vec![3, 2, 2, 2]);
}

#[test]
fn no_latencies_gives_zero_counts() {
    assert_eq!(histogram(&[], &[5, 10]), vec![0, 0, 0]);
}

#[test]
fn no_bounds_puts_everything_in_one_bucket() {
    assert_eq!(histogram(&[3, 1_000, 7], &[]), vec![3]);
}

#[test]
fn slow_requests_land_in_the_overflow_bucket() {
    assert_eq!(histogram(&[250, 251, u32::MAX], &[100, 250]), vec![0, 1, 2]);
}
