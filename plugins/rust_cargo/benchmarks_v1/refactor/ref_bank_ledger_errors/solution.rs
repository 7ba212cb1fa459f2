// Task: replace the panics with error propagation. `deposit`, `withdraw` and
// `transfer` must return `Result<(), LedgerError>`, where `LedgerError` is an
// enum (Debug, PartialEq) with the variants `UnknownAccount(String)`,
// `InsufficientFunds { needed: u64, available: u64 }` and `ZeroAmount`.
// A failed operation must leave every balance unchanged.
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerError {
    UnknownAccount(String),
    InsufficientFunds { needed: u64, available: u64 },
    ZeroAmount,
}

#[derive(Debug, Default)]
pub struct Ledger {
    balances: HashMap<String, u64>,
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger::default()
    }

    pub fn open(&mut self, account: &str) {
        self.balances.entry(account.to_string()).or_insert(0);
    }

    pub fn balance(&self, account: &str) -> Option<u64> {
        self.balances.get(account).copied()
    }

    fn account_mut(&mut self, account: &str) -> Result<&mut u64, LedgerError> {
        self.balances.get_mut(account).ok_or_else(|| LedgerError::UnknownAccount(account.to_string()))
    }

    pub fn deposit(&mut self, account: &str, amount: u64) -> Result<(), LedgerError> {
        if amount == 0 {
            return Err(LedgerError::ZeroAmount);
        }
        *self.account_mut(account)? += amount;
        Ok(())
    }

    pub fn withdraw(&mut self, account: &str, amount: u64) -> Result<(), LedgerError> {
        if amount == 0 {
            return Err(LedgerError::ZeroAmount);
        }
        let b = self.account_mut(account)?;
        if *b < amount {
            return Err(LedgerError::InsufficientFunds { needed: amount, available: *b });
        }
        *b -= amount;
        Ok(())
    }

    pub fn transfer(&mut self, from: &str, to: &str, amount: u64) -> Result<(), LedgerError> {
        if !self.balances.contains_key(to) {
            return Err(LedgerError::UnknownAccount(to.to_string()));
        }
        self.withdraw(from, amount)?;
        self.deposit(to, amount)
    }
}
