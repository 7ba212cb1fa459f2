use super::*;

#[test]
fn zero_or_oversized_window() {
    assert!(moving_average(&[1.0, 2.0], 0).is_empty());
    assert!(moving_average(&[1.0, 2.0], 3).is_empty());
    assert!(moving_average(&[], 1).is_empty());
}

#[test]
fn window_of_one_copies() {
    assert_eq!(moving_average(&[1.5, -2.0, 8.0], 1), vec![1.5, -2.0, 8.0]);
}

#[test]
fn typical_window() {
    assert_eq!(moving_average(&[1.0, 3.0, 5.0, 7.0, 10.0], 2), vec![2.0, 4.0, 6.0, 8.5]);
    assert_eq!(moving_average(&[2.0, 4.0, 6.0, 8.0], 4), vec![5.0]);
}

#[test]
fn window_of_three() {
    assert_eq!(moving_average(&[3.0, 0.0, 0.0, 3.0, 6.0], 3), vec![1.0, 1.0, 3.0]);
}
