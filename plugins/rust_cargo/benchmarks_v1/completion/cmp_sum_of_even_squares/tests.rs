use super::*;

#[test]
fn empty_slice_sums_to_zero() {
    assert_eq!(sum_of_even_squares(&[]), 0);
}

#[test]
fn only_even_values_count() {
    assert_eq!(sum_of_even_squares(&[1, 2, 3, 4]), 4 + 16);
}

#[test]
fn negative_even_values_count() {
    assert_eq!(sum_of_even_squares(&[-2, -3]), 4);
}

#[test]
fn large_values_do_not_overflow() {
    assert_eq!(sum_of_even_squares(&[46_340 * 2, 46_340 * 2]), 2 * (92_680i64 * 92_680));
}
