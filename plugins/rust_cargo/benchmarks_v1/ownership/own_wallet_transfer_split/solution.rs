// Task: `transfer` moves money between two wallets of a payment app, as the
// doc comment says. The file does not compile. Fix it and return the whole
// corrected file.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wallet {
    pub owner: String,
    pub cents: u64,
}

#[derive(Debug, PartialEq, Eq)]
pub enum TransferError {
    SameWallet,
    UnknownWallet(usize),
    InsufficientFunds,
}

/// Moves `amount` cents from `wallets[from]` to `wallets[to]`. Fails, changing
/// nothing, if `from == to`, if either index is out of range (`from` is
/// checked first) or if the source holds less than `amount`.
pub fn transfer(wallets: &mut [Wallet], from: usize, to: usize, amount: u64) -> Result<(), TransferError> {
    if from == to {
        return Err(TransferError::SameWallet);
    }
    for &index in &[from, to] {
        if index >= wallets.len() {
            return Err(TransferError::UnknownWallet(index));
        }
    }
    let (source, target) = if from < to {
        let (left, right) = wallets.split_at_mut(to);
        (&mut left[from], &mut right[0])
    } else {
        let (left, right) = wallets.split_at_mut(from);
        (&mut right[0], &mut left[to])
    };
    if source.cents < amount {
        return Err(TransferError::InsufficientFunds);
    }
    source.cents -= amount;
    target.cents += amount;
    Ok(())
}
