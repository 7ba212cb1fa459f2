use super::*;

#[test]
fn no_entries_keep_the_start() {
    assert_eq!(final_balance(1_250, &[]), 1_250);
}

#[test]
fn deposits_withdrawals_and_fees() {
    let entries = vec![
        Entry::Deposit(10_000),
        Entry::Withdrawal(2_500),
        Entry::Fee { amount: 150, reason: "wire".to_string() },
    ];
    assert_eq!(final_balance(0, &entries), 7_350);
}

#[test]
fn balance_may_go_negative() {
    let entries = vec![Entry::Withdrawal(300), Entry::Fee { amount: 25, reason: "overdraft".to_string() }];
    assert_eq!(final_balance(100, &entries), -225);
}

#[test]
fn interest_rounds_down_and_compounds_in_order() {
    let entries = vec![Entry::Interest { basis_points: 250 }, Entry::Interest { basis_points: 250 }];
    // 10_000 + 250 = 10_250, then 10_250 * 2.5% = 256.25 -> 256
    assert_eq!(final_balance(10_000, &entries), 10_506);
}

#[test]
fn no_interest_on_a_balance_that_is_not_positive() {
    assert_eq!(final_balance(-5_000, &[Entry::Interest { basis_points: 1_000 }]), -5_000);
    assert_eq!(final_balance(0, &[Entry::Interest { basis_points: 1_000 }, Entry::Deposit(40)]), 40);
}
