use super::*;

#[test]
fn short_histories_have_no_drawdown() {
    assert_eq!(max_drawdown(&[]), 0);
    assert_eq!(max_drawdown(&[500]), 0);
}

#[test]
fn rising_history_has_no_drawdown() {
    assert_eq!(max_drawdown(&[1, 2, 2, 5, 9]), 0);
}

#[test]
fn drop_is_measured_from_the_earlier_peak() {
    assert_eq!(max_drawdown(&[100, 150, 90, 120, 60, 200, 180]), 90);
}

#[test]
fn later_rise_does_not_count() {
    assert_eq!(max_drawdown(&[50, 10, 500]), 40);
}

#[test]
fn negative_balances_and_extremes() {
    assert_eq!(max_drawdown(&[-10, -40, -5, -60]), 55);
    assert_eq!(max_drawdown(&[i32::MAX, i32::MIN]), i64::from(i32::MAX) - i64::from(i32::MIN));
}
