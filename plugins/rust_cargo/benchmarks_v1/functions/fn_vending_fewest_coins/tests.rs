use super::*;

#[test]
fn zero_amount_needs_no_coins() {
    assert_eq!(fewest_coins(&[5, 10], 0), Some(0));
    assert_eq!(fewest_coins(&[], 0), Some(0));
}

#[test]
fn canonical_coins() {
    assert_eq!(fewest_coins(&[1, 5, 10, 25], 63), Some(6));
}

#[test]
fn greedy_is_not_optimal() {
    assert_eq!(fewest_coins(&[1, 3, 4], 6), Some(2));
    assert_eq!(fewest_coins(&[25, 10, 1], 30), Some(3));
}

#[test]
fn impossible_amounts() {
    assert_eq!(fewest_coins(&[2], 3), None);
    assert_eq!(fewest_coins(&[], 7), None);
    assert_eq!(fewest_coins(&[4, 6], 7), None);
}

#[test]
fn zero_denominations_are_ignored() {
    assert_eq!(fewest_coins(&[0, 7], 14), Some(2));
    assert_eq!(fewest_coins(&[0], 1), None);
}

#[test]
fn larger_amount() {
    assert_eq!(fewest_coins(&[1, 7, 50], 9_999), Some(206));
}
