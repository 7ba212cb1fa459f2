use super::*;

fn ledger() -> Ledger {
    let mut l = Ledger::new();
    l.open("alice");
    l.open("bob");
    l.deposit("alice", 100).unwrap();
    l
}

#[test]
fn successful_operations_return_ok() {
    let mut l = ledger();
    assert_eq!(l.withdraw("alice", 30), Ok(()));
    assert_eq!(l.transfer("alice", "bob", 50), Ok(()));
    assert_eq!(l.balance("alice"), Some(20));
    assert_eq!(l.balance("bob"), Some(50));
}

#[test]
fn unknown_accounts_are_reported() {
    let mut l = ledger();
    assert_eq!(l.deposit("carol", 5), Err(LedgerError::UnknownAccount("carol".to_string())));
    assert_eq!(l.withdraw("dave", 5), Err(LedgerError::UnknownAccount("dave".to_string())));
    assert_eq!(l.transfer("alice", "erin", 5), Err(LedgerError::UnknownAccount("erin".to_string())));
    assert_eq!(l.transfer("frank", "bob", 5), Err(LedgerError::UnknownAccount("frank".to_string())));
    assert_eq!(l.balance("alice"), Some(100));
}

#[test]
fn overdraft_is_reported_with_amounts() {
    let mut l = ledger();
    assert_eq!(l.withdraw("alice", 101), Err(LedgerError::InsufficientFunds { needed: 101, available: 100 }));
    assert_eq!(l.transfer("bob", "alice", 1), Err(LedgerError::InsufficientFunds { needed: 1, available: 0 }));
    assert_eq!(l.balance("alice"), Some(100));
    assert_eq!(l.balance("bob"), Some(0));
}

#[test]
fn zero_amounts_are_rejected() {
    let mut l = ledger();
    assert_eq!(l.deposit("alice", 0), Err(LedgerError::ZeroAmount));
    assert_eq!(l.withdraw("alice", 0), Err(LedgerError::ZeroAmount));
    assert_eq!(l.transfer("alice", "bob", 0), Err(LedgerError::ZeroAmount));
    assert_eq!(l.balance("alice"), Some(100));
}
