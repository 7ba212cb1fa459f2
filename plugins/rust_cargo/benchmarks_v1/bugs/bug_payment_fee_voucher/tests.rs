use super::*;

#[test]
fn card_fee_rounds_up() {
    assert_eq!(fee(Method::Card, 1_000), 15 + 25);
    assert_eq!(fee(Method::Card, 1_001), 16 + 25);
    assert_eq!(fee(Method::Card, 0), 25);
}

#[test]
fn wallet_and_transfer() {
    assert_eq!(fee(Method::Wallet, 250), 5);
    assert_eq!(fee(Method::Wallet, 251), 6);
    assert_eq!(fee(Method::BankTransfer, 1_000_000), 50);
}

#[test]
fn vouchers_are_free() {
    assert_eq!(fee(Method::Voucher, 5_000), 0);
}

#[test]
fn totals() {
    let payments = [(Method::Card, 2_000), (Method::Voucher, 900), (Method::BankTransfer, 10), (Method::Wallet, 100)];
    assert_eq!(total_fees(&payments), (30 + 25) + 0 + 50 + 2);
    assert_eq!(total_fees(&[]), 0);
}
