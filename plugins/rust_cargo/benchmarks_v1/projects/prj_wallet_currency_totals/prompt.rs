// Task: add `Wallet::total_in(&self, target: Currency, rates: &RateTable)
// -> Result<u64, MissingRate>` returning the wallet's value in minor units
// of `target`. Balances already in `target` count as they are. Any other
// balance is converted with the direct rate from its currency to `target`;
// if there is none, with the inverse of the direct rate from `target` to
// its currency. Each balance is converted separately and rounded half up to
// a minor unit of `target` (mind the currencies' minor units). If neither
// rate exists, return `MissingRate { from, to: target }` for the first such
// currency in `Currency` order.
use crate::currency::Currency;
use crate::rates::RateTable;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingRate {
    pub from: Currency,
    pub to: Currency,
}

#[derive(Debug, Default)]
pub struct Wallet {
    /// Balances in minor units.
    balances: BTreeMap<Currency, u64>,
}

impl Wallet {
    pub fn new() -> Wallet {
        Wallet::default()
    }

    pub fn deposit(&mut self, currency: Currency, minor: u64) {
        *self.balances.entry(currency).or_insert(0) += minor;
    }

    pub fn balance(&self, currency: Currency) -> u64 {
        self.balances.get(&currency).copied().unwrap_or(0)
    }
}
