// Task: `Account` is a small bank-account ledger. Deposits and withdrawals
// must follow the rules in the doc comments. The code compiles but has a bug.
// Fix it and return the whole corrected file.

#[derive(Debug, PartialEq, Eq)]
pub enum LedgerError {
    ZeroAmount,
    InsufficientFunds { balance: u64, requested: u64 },
}

/// Balance and movements of one account, in cents.
#[derive(Debug)]
pub struct Account {
    balance: u64,
    history: Vec<i64>,
}

impl Account {
    pub fn new(opening: u64) -> Account {
        Account { balance: opening, history: Vec::new() }
    }

    pub fn balance(&self) -> u64 {
        self.balance
    }

    /// Accepted movements, deposits positive and withdrawals negative.
    pub fn history(&self) -> &[i64] {
        &self.history
    }

    /// Adds `amount`; returns the new balance. Zero amounts are rejected.
    pub fn deposit(&mut self, amount: u64) -> Result<u64, LedgerError> {
        if amount == 0 {
            return Err(LedgerError::ZeroAmount);
        }
        self.balance += amount;
        self.history.push(amount as i64);
        Ok(self.balance)
    }

    /// Takes `amount` out; returns the new balance. Zero amounts are rejected,
    /// and so is any amount larger than the balance. Emptying the account
    /// completely is allowed.
    pub fn withdraw(&mut self, amount: u64) -> Result<u64, LedgerError> {
        if amount == 0 {
            return Err(LedgerError::ZeroAmount);
        }
        if amount >= self.balance {
            return Err(LedgerError::InsufficientFunds { balance: self.balance, requested: amount });
        }
        self.balance -= amount;
        self.history.push(-(amount as i64));
        Ok(self.balance)
    }
}
