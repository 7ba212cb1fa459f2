use crate::currency::Currency;
use crate::rates::RateTable;
use crate::wallet::{MissingRate, Wallet};

fn rates() -> RateTable {
    let mut r = RateTable::new();
    r.set(Currency::Usd, Currency::Eur, 920_000); // 1 USD = 0.92 EUR
    r.set(Currency::Eur, Currency::Gbp, 850_000); // 1 EUR = 0.85 GBP
    r.set(Currency::Eur, Currency::Jpy, 160_000_000); // 1 EUR = 160 JPY
    r
}

#[test]
fn same_currency_counts_as_is() {
    let mut w = Wallet::new();
    w.deposit(Currency::Eur, 1_234);
    w.deposit(Currency::Eur, 1);
    assert_eq!(w.total_in(Currency::Eur, &rates()), Ok(1_235));
    assert_eq!(Wallet::new().total_in(Currency::Gbp, &RateTable::new()), Ok(0));
}

#[test]
fn direct_rates_with_rounding() {
    let mut w = Wallet::new();
    w.deposit(Currency::Usd, 1_000); // 10.00 USD = 9.20 EUR
    w.deposit(Currency::Eur, 50);
    assert_eq!(w.total_in(Currency::Eur, &rates()), Ok(970));
    let mut w = Wallet::new();
    w.deposit(Currency::Usd, 1); // 0.01 USD = 0.92 euro cent, rounds to 1
    assert_eq!(w.total_in(Currency::Eur, &rates()), Ok(1));
}

#[test]
fn minor_units_differ_for_yen() {
    let mut w = Wallet::new();
    w.deposit(Currency::Eur, 250); // 2.50 EUR = 400 JPY
    assert_eq!(w.total_in(Currency::Jpy, &rates()), Ok(400));
    let mut w = Wallet::new();
    w.deposit(Currency::Jpy, 1_000); // via inverse: 1000 / 160 = 6.25 EUR
    assert_eq!(w.total_in(Currency::Eur, &rates()), Ok(625));
}

#[test]
fn inverse_rate_rounds_half_up() {
    let mut w = Wallet::new();
    w.deposit(Currency::Gbp, 17); // 0.17 GBP / 0.85 = 0.20 EUR exactly
    w.deposit(Currency::Jpy, 1); // 1/160 EUR = 0.625 cent -> 1
    assert_eq!(w.total_in(Currency::Eur, &rates()), Ok(21));
}

#[test]
fn missing_rate_names_first_currency() {
    let mut w = Wallet::new();
    w.deposit(Currency::Jpy, 5);
    w.deposit(Currency::Usd, 5);
    w.deposit(Currency::Gbp, 5);
    assert_eq!(w.total_in(Currency::Usd, &rates()), Err(MissingRate { from: Currency::Gbp, to: Currency::Usd }));
}
