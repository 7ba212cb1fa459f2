use super::*;

#[test]
fn exact_amounts() {
    assert_eq!(vat_cents(0, 2_000), 0);
    assert_eq!(vat_cents(1_000, 2_000), 200);
    assert_eq!(vat_cents(1_000, 0), 0);
}

#[test]
fn rounds_to_nearest() {
    assert_eq!(vat_cents(12_345, 1_950), 2_407); // 2407.275
    assert_eq!(vat_cents(1, 5_001), 1);
    assert_eq!(vat_cents(1, 4_999), 0);
    assert_eq!(vat_cents(999, 2_000), 200); // 199.8
}

#[test]
fn halves_go_to_even() {
    assert_eq!(vat_cents(1, 5_000), 0);
    assert_eq!(vat_cents(3, 5_000), 2);
    assert_eq!(vat_cents(5, 5_000), 2);
    assert_eq!(vat_cents(7, 5_000), 4);
    assert_eq!(vat_cents(25, 1_000), 2); // 2.5
    assert_eq!(vat_cents(35, 1_000), 4); // 3.5
}

#[test]
fn large_amounts_do_not_overflow() {
    assert_eq!(vat_cents(10_000_000_000_000_000, 2_000), 2_000_000_000_000_000);
}
