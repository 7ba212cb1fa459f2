use super::*;

#[test]
fn averages_each_window() {
    assert_eq!(moving_average(&[1.0, 2.0, 3.0, 4.0], 2), vec![1.5, 2.5, 3.5]);
}

#[test]
fn width_equal_to_length_gives_one_average() {
    assert_eq!(moving_average(&[2.0, 4.0, 9.0], 3), vec![5.0]);
}

#[test]
fn degenerate_widths_give_nothing() {
    assert!(moving_average(&[1.0, 2.0], 0).is_empty());
    assert!(moving_average(&[1.0, 2.0], 3).is_empty());
    assert!(moving_average(&[], 1).is_empty());
}

#[test]
fn width_one_copies_the_samples() {
    assert_eq!(moving_average(&[-1.5, 0.0, 8.25], 1), vec![-1.5, 0.0, 8.25]);
}
