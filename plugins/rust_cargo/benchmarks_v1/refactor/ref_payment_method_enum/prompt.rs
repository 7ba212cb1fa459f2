// Task: replace the method strings with an enum `PaymentMethod` (variants
// Card, BankTransfer, Wallet; derive Debug, Clone, Copy, PartialEq, Eq) with
//   pub fn fee_cents(self, amount_cents: u64) -> u64
// and a `FromStr` impl for "card", "bank_transfer" and "wallet" (exact
// spelling, `Err(String)` holding the unknown input). `checkout_total` must
// take a `PaymentMethod` and no longer return an Option.

/// Card: 2.9% rounded down plus 30 cents; bank transfer: flat 50 cents;
/// wallet: 1.5% rounded down, at least 10 cents.
pub fn fee_cents(method: &str, amount_cents: u64) -> Option<u64> {
    match method {
        "card" => Some(amount_cents * 29 / 1000 + 30),
        "bank_transfer" => Some(50),
        "wallet" => {
            let fee = amount_cents * 15 / 1000;
            Some(if fee < 10 { 10 } else { fee })
        }
        _ => None,
    }
}

pub fn checkout_total(method: &str, amount_cents: u64) -> Option<u64> {
    fee_cents(method, amount_cents).map(|fee| amount_cents + fee)
}
