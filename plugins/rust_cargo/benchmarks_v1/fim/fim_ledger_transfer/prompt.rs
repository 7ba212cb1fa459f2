use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransferError {
    ZeroAmount,
    SameAccount,
    UnknownAccount(String),
    InsufficientFunds { available: u64, requested: u64 },
}

/// Account balances in cents.
#[derive(Debug, Default)]
pub struct Ledger {
    balances: HashMap<String, u64>,
}

impl Ledger {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn open(&mut self, name: &str, balance: u64) {
        self.balances.insert(name.to_string(), balance);
    }

    pub fn balance(&self, name: &str) -> Option<u64> {
        self.balances.get(name).copied()
    }

    /// Moves `amount` from `from` to `to`. Checks, in this order: the amount
    /// is not zero, the accounts differ, both accounts exist (`from` first),
    /// and `from` holds at least `amount`. On error no balance changes.
    pub fn transfer(&mut self, from: &str, to: &str, amount: u64) -> Result<(), TransferError> {
        if amount == 0 {
            return Err(TransferError::ZeroAmount);
        }
        if from == to {
            return Err(TransferError::SameAccount);
        }
        /*FILL*/
        if let Some(balance) = self.balances.get_mut(from) {
            *balance -= amount;
        }
        if let Some(balance) = self.balances.get_mut(to) {
            *balance += amount;
        }
        Ok(())
    }
}
