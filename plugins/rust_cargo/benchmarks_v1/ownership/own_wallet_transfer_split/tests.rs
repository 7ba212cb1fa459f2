use super::*;

fn wallets() -> Vec<Wallet> {
    ["ana", "ben", "cai"].iter().map(|o| Wallet { owner: o.to_string(), cents: 1_000 }).collect()
}

fn balances(w: &[Wallet]) -> Vec<u64> {
    w.iter().map(|w| w.cents).collect()
}

#[test]
fn transfers_in_both_directions() {
    let mut w = wallets();
    assert_eq!(transfer(&mut w, 0, 2, 300), Ok(()));
    assert_eq!(transfer(&mut w, 2, 1, 1_300), Ok(()));
    assert_eq!(balances(&w), vec![700, 2_300, 0]);
}

#[test]
fn insufficient_funds_change_nothing() {
    let mut w = wallets();
    assert_eq!(transfer(&mut w, 1, 0, 1_001), Err(TransferError::InsufficientFunds));
    assert_eq!(balances(&w), vec![1_000, 1_000, 1_000]);
}

#[test]
fn invalid_indices() {
    let mut w = wallets();
    assert_eq!(transfer(&mut w, 1, 1, 5), Err(TransferError::SameWallet));
    assert_eq!(transfer(&mut w, 3, 0, 5), Err(TransferError::UnknownWallet(3)));
    assert_eq!(transfer(&mut w, 0, 7, 5), Err(TransferError::UnknownWallet(7)));
    assert_eq!(transfer(&mut w, 9, 7, 5), Err(TransferError::UnknownWallet(9)));
    assert_eq!(balances(&w), vec![1_000, 1_000, 1_000]);
}

#[test]
fn whole_balance_and_zero_amounts() {
    let mut w = wallets();
    assert_eq!(transfer(&mut w, 0, 1, 1_000), Ok(()));
    assert_eq!(transfer(&mut w, 0, 1, 0), Ok(()));
    assert_eq!(balances(&w), vec![0, 2_000, 1_000]);
}
