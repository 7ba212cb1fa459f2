// Task: replace the panics with error propagation. `deposit`, `withdraw` and
// `transfer` must return `Result<(), LedgerError>`, where `LedgerError` is an
// enum (Debug, PartialEq) with the variants `UnknownAccount(String)`,
// `InsufficientFunds { needed: u64, available: u64 }` and `ZeroAmount`.
// A failed operation must leave every balance unchanged.
use std::collections::HashMap;

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

    pub fn deposit(&mut self, account: &str, amount: u64) {
        assert!(amount > 0, "zero amount");
        let b = self.balances.get_mut(account).expect("unknown account");
        *b += amount;
    }

    pub fn withdraw(&mut self, account: &str, amount: u64) {
        assert!(amount > 0, "zero amount");
        let b = self.balances.get_mut(account).expect("unknown account");
        if *b < amount {
            panic!("insufficient funds");
        }
        *b -= amount;
    }

    pub fn transfer(&mut self, from: &str, to: &str, amount: u64) {
        assert!(self.balances.contains_key(to), "unknown account");
        self.withdraw(from, amount);
        self.deposit(to, amount);
    }
}
