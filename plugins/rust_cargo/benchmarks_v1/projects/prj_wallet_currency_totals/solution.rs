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

const MICRO: u128 = 1_000_000;

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

/// Rounds num / den half up.
fn div_round(num: u128, den: u128) -> u64 {
    ((2 * num + den) / (2 * den)) as u64
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

    fn convert(minor: u64, from: Currency, to: Currency, rates: &RateTable) -> Result<u64, MissingRate> {
        // target_minor = minor / from_mpm * rate * to_mpm
        let base = u128::from(minor) * u128::from(to.minor_per_major());
        let from_mpm = u128::from(from.minor_per_major());
        if let Some(rate) = rates.direct(from, to) {
            return Ok(div_round(base * u128::from(rate), from_mpm * MICRO));
        }
        match rates.direct(to, from) {
            Some(inverse) if inverse > 0 => Ok(div_round(base * MICRO, from_mpm * u128::from(inverse))),
            _ => Err(MissingRate { from, to }),
        }
    }

    pub fn total_in(&self, target: Currency, rates: &RateTable) -> Result<u64, MissingRate> {
        let mut total = 0;
        for (&currency, &minor) in &self.balances {
            total += if currency == target { minor } else { Wallet::convert(minor, currency, target, rates)? };
        }
        Ok(total)
    }
}
