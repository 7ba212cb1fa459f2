// Task: replace the method strings with an enum `PaymentMethod` (variants
// Card, BankTransfer, Wallet; derive Debug, Clone, Copy, PartialEq, Eq) with
//   pub fn fee_cents(self, amount_cents: u64) -> u64
// and a `FromStr` impl for "card", "bank_transfer" and "wallet" (exact
// spelling, `Err(String)` holding the unknown input). `checkout_total` must
// take a `PaymentMethod` and no longer return an Option.
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentMethod {
    Card,
    BankTransfer,
    Wallet,
}

impl PaymentMethod {
    /// Card: 2.9% rounded down plus 30 cents; bank transfer: flat 50 cents;
    /// wallet: 1.5% rounded down, at least 10 cents.
    pub fn fee_cents(self, amount_cents: u64) -> u64 {
        match self {
            PaymentMethod::Card => amount_cents * 29 / 1000 + 30,
            PaymentMethod::BankTransfer => 50,
            PaymentMethod::Wallet => (amount_cents * 15 / 1000).max(10),
        }
    }
}

impl FromStr for PaymentMethod {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "card" => Ok(PaymentMethod::Card),
            "bank_transfer" => Ok(PaymentMethod::BankTransfer),
            "wallet" => Ok(PaymentMethod::Wallet),
            other => Err(other.to_string()),
        }
    }
}

pub fn checkout_total(method: PaymentMethod, amount_cents: u64) -> u64 {
    amount_cents + method.fee_cents(amount_cents)
}
