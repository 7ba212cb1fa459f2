use super::*;

fn cart() -> Vec<LineItem> {
    vec![
        LineItem { sku: "TEA-GREEN".to_string(), unit_cents: 999, qty: 2 },
        LineItem { sku: "MUG-RED".to_string(), unit_cents: 1_500, qty: 1 },
        LineItem { sku: "TEA-BLACK".to_string(), unit_cents: 450, qty: 4 },
    ]
}

#[test]
fn discount_changes_the_callers_cart() {
    let mut c = cart();
    assert_eq!(apply_discount(&mut c, "TEA-", 10), 2);
    assert_eq!(c[0].unit_cents, 899);
    assert_eq!(c[1].unit_cents, 1_500);
    assert_eq!(c[2].unit_cents, 405);
    assert_eq!(cart_total(&c), 899 * 2 + 1_500 + 405 * 4);
}

#[test]
fn discounts_stack() {
    let mut c = cart();
    apply_discount(&mut c, "MUG", 50);
    apply_discount(&mut c, "MUG", 50);
    assert_eq!(c[1].unit_cents, 375);
}

#[test]
fn percent_is_capped() {
    let mut c = cart();
    assert_eq!(apply_discount(&mut c, "", 150), 3);
    assert_eq!(cart_total(&c), 0);
}

#[test]
fn no_match_changes_nothing() {
    let mut c = cart();
    assert_eq!(apply_discount(&mut c, "PEN", 20), 0);
    assert_eq!(c, cart());
}
