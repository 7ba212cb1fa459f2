use super::*;

#[test]
fn parses_known_methods() {
    assert_eq!("card".parse::<PaymentMethod>(), Ok(PaymentMethod::Card));
    assert_eq!("bank_transfer".parse::<PaymentMethod>(), Ok(PaymentMethod::BankTransfer));
    assert_eq!("wallet".parse::<PaymentMethod>(), Ok(PaymentMethod::Wallet));
}

#[test]
fn unknown_method_is_returned_in_the_error() {
    assert_eq!("Card".parse::<PaymentMethod>(), Err("Card".to_string()));
    assert_eq!("cash".parse::<PaymentMethod>(), Err("cash".to_string()));
}

#[test]
fn fees_per_method() {
    assert_eq!(PaymentMethod::Card.fee_cents(10_000), 320);
    assert_eq!(PaymentMethod::Card.fee_cents(0), 30);
    assert_eq!(PaymentMethod::BankTransfer.fee_cents(123_456), 50);
    assert_eq!(PaymentMethod::Wallet.fee_cents(10_000), 150);
    assert_eq!(PaymentMethod::Wallet.fee_cents(500), 10);
}

#[test]
fn checkout_total_adds_the_fee() {
    assert_eq!(checkout_total(PaymentMethod::Card, 1_000), 1_059);
    assert_eq!(checkout_total(PaymentMethod::Wallet, 0), 10);
    assert_eq!(checkout_total(PaymentMethod::BankTransfer, 2_000), 2_050);
}
