use super::*;

fn ledger() -> Ledger {
    let mut l = Ledger::new();
    l.open("alice", 100);
    l.open("bob", 50);
    l
}

#[test]
fn moves_money() {
    let mut l = ledger();
    assert_eq!(l.transfer("alice", "bob", 30), Ok(()));
    assert_eq!((l.balance("alice"), l.balance("bob")), (Some(70), Some(80)));
    assert_eq!(l.transfer("bob", "alice", 80), Ok(()));
    assert_eq!((l.balance("alice"), l.balance("bob")), (Some(150), Some(0)));
}

#[test]
fn zero_and_same_account_are_checked_first() {
    let mut l = ledger();
    assert_eq!(l.transfer("x", "y", 0), Err(TransferError::ZeroAmount));
    assert_eq!(l.transfer("ghost", "ghost", 5), Err(TransferError::SameAccount));
}

#[test]
fn unknown_accounts_source_first() {
    let mut l = ledger();
    assert_eq!(l.transfer("carol", "dave", 1), Err(TransferError::UnknownAccount("carol".to_string())));
    assert_eq!(l.transfer("alice", "dave", 1), Err(TransferError::UnknownAccount("dave".to_string())));
    assert_eq!(l.transfer("carol", "alice", 1_000), Err(TransferError::UnknownAccount("carol".to_string())));
    assert_eq!(l.balance("alice"), Some(100));
}

#[test]
fn insufficient_funds_change_nothing() {
    let mut l = ledger();
    assert_eq!(
        l.transfer("bob", "alice", 51),
        Err(TransferError::InsufficientFunds { available: 50, requested: 51 })
    );
    assert_eq!((l.balance("alice"), l.balance("bob")), (Some(100), Some(50)));
}
