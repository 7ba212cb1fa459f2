use super::*;

#[test]
fn withdrawing_the_whole_balance_is_allowed() {
    let mut a = Account::new(2_500);
    assert_eq!(a.withdraw(2_500), Ok(0));
    assert_eq!(a.balance(), 0);
    assert_eq!(a.history(), &[-2_500]);
}

#[test]
fn overdraft_is_rejected_and_not_recorded() {
    let mut a = Account::new(100);
    assert_eq!(a.withdraw(101), Err(LedgerError::InsufficientFunds { balance: 100, requested: 101 }));
    assert_eq!(a.balance(), 100);
    assert!(a.history().is_empty());
}

#[test]
fn zero_amounts_are_rejected() {
    let mut a = Account::new(10);
    assert_eq!(a.deposit(0), Err(LedgerError::ZeroAmount));
    assert_eq!(a.withdraw(0), Err(LedgerError::ZeroAmount));
}

#[test]
fn movements_are_recorded_in_order() {
    let mut a = Account::new(0);
    assert_eq!(a.deposit(700), Ok(700));
    assert_eq!(a.withdraw(200), Ok(500));
    assert_eq!(a.withdraw(500), Ok(0));
    assert_eq!(a.history(), &[700, -200, -500]);
}
