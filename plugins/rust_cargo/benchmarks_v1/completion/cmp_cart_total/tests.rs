use super::*;

fn line(unit_cents: u64, quantity: u32, discount_pct: u8) -> CartLine {
    CartLine { name: "item".to_string(), unit_cents, quantity, discount_pct }
}

#[test]
fn empty_cart_costs_nothing() {
    assert_eq!(cart_total(&[]), 0);
}

#[test]
fn sums_lines_without_discount() {
    assert_eq!(cart_total(&[line(250, 2, 0), line(1_000, 1, 0), line(75, 0, 0)]), 1_500);
}

#[test]
fn discount_is_rounded_down() {
    // 10% of 999 is 99.9 cents, rounded down to 99
    assert_eq!(cart_total(&[line(999, 1, 10)]), 900);
}

#[test]
fn discount_applies_to_the_line_total() {
    // 50% of 999 = 499.5 -> 499 off
    assert_eq!(cart_total(&[line(333, 3, 50)]), 500);
}

#[test]
fn full_discount_is_free() {
    assert_eq!(cart_total(&[line(4_999, 7, 100), line(10, 1, 0)]), 10);
}
