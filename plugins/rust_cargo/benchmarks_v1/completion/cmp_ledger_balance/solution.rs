/// One entry of an account ledger; amounts are in cents.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Deposit(u64),
    Withdrawal(u64),
    /// A fee is charged like a withdrawal of `amount` cents.
    Fee { amount: u64, reason: String },
    /// Interest of `basis_points` (1/100 of a percent) of the current balance,
    /// rounded down to the cent. It is only paid on a positive balance.
    Interest { basis_points: u32 },
}

/// Applies the entries in order to a starting balance (the balance may go
/// negative) and returns the final balance in cents.
pub fn final_balance(start: i64, entries: &[Entry]) -> i64 {
    let mut balance = start;
    for entry in entries {
        balance = match entry {
            Entry::Deposit(amount) => balance + *amount as i64,
            Entry::Withdrawal(amount) => balance - *amount as i64,
            Entry::Fee { amount, .. } => balance - *amount as i64,
            Entry::Interest { basis_points } if balance > 0 => {
                balance + balance * i64::from(*basis_points) / 10_000
            }
            Entry::Interest { .. } => balance,
        };
    }
    balance
}
