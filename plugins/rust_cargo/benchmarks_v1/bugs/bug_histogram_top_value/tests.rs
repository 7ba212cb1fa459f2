use super::*;

#[test]
fn values_fall_into_their_buckets() {
    assert_eq!(histogram(&[0.0, 1.5, 2.0, 3.9, 7.0], 0.0, 10.0, 5), vec![2, 2, 0, 1, 0]);
}

#[test]
fn maximum_goes_to_the_last_bucket() {
    assert_eq!(histogram(&[10.0, 9.0, 10.0], 0.0, 10.0, 5), vec![0, 0, 0, 0, 3]);
    assert_eq!(histogram(&[4.0], 2.0, 4.0, 1), vec![1]);
}

#[test]
fn out_of_range_values_are_ignored() {
    assert_eq!(histogram(&[-0.5, 10.5, 5.0], 0.0, 10.0, 2), vec![0, 1]);
}

#[test]
fn degenerate_ranges_count_nothing() {
    assert_eq!(histogram(&[1.0], 0.0, 10.0, 0), Vec::<usize>::new());
    assert_eq!(histogram(&[1.0], 5.0, 5.0, 3), vec![0, 0, 0]);
    assert_eq!(histogram(&[], 0.0, 1.0, 2), vec![0, 0]);
}
