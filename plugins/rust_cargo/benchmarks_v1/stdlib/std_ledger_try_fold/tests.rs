use super::*;

#[test]
fn no_entries_keeps_opening_balance() {
    assert_eq!(apply_entries(1_234, &[]), Ok(1_234));
}

#[test]
fn mixed_entries() {
    let entries = [Entry::Deposit(500), Entry::Withdrawal(300), Entry::Fee(25), Entry::Deposit(10)];
    assert_eq!(apply_entries(100, &entries), Ok(285));
}

#[test]
fn balance_may_reach_exactly_zero() {
    assert_eq!(apply_entries(50, &[Entry::Withdrawal(30), Entry::Fee(20)]), Ok(0));
}

#[test]
fn first_overdraft_is_reported() {
    let entries = [Entry::Withdrawal(60), Entry::Fee(50), Entry::Deposit(1_000), Entry::Withdrawal(5_000)];
    assert_eq!(apply_entries(100, &entries), Err(Overdraft { index: 1, shortfall: 10 }));
}

#[test]
fn overdraft_on_first_entry() {
    assert_eq!(apply_entries(0, &[Entry::Fee(1)]), Err(Overdraft { index: 0, shortfall: 1 }));
}
