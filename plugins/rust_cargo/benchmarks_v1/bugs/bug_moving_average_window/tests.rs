use super::*;

#[test]
fn every_window_is_averaged() {
    assert_eq!(moving_average(&[1.0, 3.0, 5.0, 7.0, 9.0], 2), vec![2.0, 4.0, 6.0, 8.0]);
}

#[test]
fn width_one_returns_the_samples() {
    assert_eq!(moving_average(&[4.0, -2.0, 8.5], 1), vec![4.0, -2.0, 8.5]);
}

#[test]
fn width_equal_to_length_gives_one_window() {
    assert_eq!(moving_average(&[2.0, 4.0, 6.0, 8.0], 4), vec![5.0]);
}

#[test]
fn degenerate_widths_give_nothing() {
    assert!(moving_average(&[1.0, 2.0], 0).is_empty());
    assert!(moving_average(&[1.0, 2.0], 3).is_empty());
    assert!(moving_average(&[], 1).is_empty());
}
