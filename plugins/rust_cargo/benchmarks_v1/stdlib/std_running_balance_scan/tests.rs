use super::*;

#[test]
fn no_days() {
    assert!(balances_until_overdrawn(100, &[]).is_empty());
}

#[test]
fn never_overdrawn() {
    assert_eq!(balances_until_overdrawn(100, &[-50, 20, -70, 0]), vec![50, 70, 0, 0]);
}

#[test]
fn stops_after_first_negative_day() {
    assert_eq!(balances_until_overdrawn(100, &[-50, -60, 500, -1]), vec![50, -10]);
}

#[test]
fn negative_on_first_day() {
    assert_eq!(balances_until_overdrawn(0, &[-1, 10, 10]), vec![-1]);
}

#[test]
fn negative_opening_is_not_a_day() {
    assert_eq!(balances_until_overdrawn(-5, &[10, -20, 3]), vec![5, -15]);
}
