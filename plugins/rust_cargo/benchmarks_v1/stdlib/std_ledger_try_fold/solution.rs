/// One entry of an account ledger, amounts in cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    Deposit(u64),
    Withdrawal(u64),
    Fee(u64),
}

/// The first entry that would have taken the balance below zero.
#[derive(Debug, PartialEq, Eq)]
pub struct Overdraft {
    /// Index of the offending entry.
    pub index: usize,
    /// How many cents were missing to cover it.
    pub shortfall: u64,
}

/// Applies `entries` in order to the `opening` balance: deposits add,
/// withdrawals and fees subtract. The balance may never go below zero; the
/// first entry that would make it negative stops the processing and is
/// reported as `Err(Overdraft { .. })`. Otherwise returns the final balance.
pub fn apply_entries(opening: u64, entries: &[Entry]) -> Result<u64, Overdraft> {
    entries
        .iter()
        .enumerate()
        .try_fold(opening, |balance, (index, entry)| match *entry {
            Entry::Deposit(amount) => Ok(balance + amount),
            Entry::Withdrawal(amount) | Entry::Fee(amount) => balance
                .checked_sub(amount)
                .ok_or_else(|| Overdraft { index, shortfall: amount - balance }),
        })
}
