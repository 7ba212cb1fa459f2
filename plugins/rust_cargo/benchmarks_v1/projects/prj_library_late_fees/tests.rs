use crate::library::{Library, LoanError};
use crate::member::Member;
use crate::policy::FeePolicy;

fn library() -> Library {
    let mut l = Library::new(FeePolicy { loan_days: 14, cents_per_day: 20, max_fee_cents: 300, block_above_cents: 250 });
    l.join(Member::new(1, "Noor"));
    l.join(Member::new(2, "Tariq"));
    l
}

#[test]
fn on_time_return_is_free() {
    let mut l = library();
    l.checkout("978-1", 1, 100).unwrap();
    assert_eq!(l.return_book("978-1", 114), Ok(0));
    assert_eq!(l.member(1).unwrap().owed_cents, 0);
}

#[test]
fn late_return_charges_the_borrower() {
    let mut l = library();
    l.checkout("978-1", 2, 0).unwrap();
    l.checkout("978-2", 2, 0).unwrap();
    assert_eq!(l.return_book("978-1", 17), Ok(60));
    assert_eq!(l.return_book("978-2", 100), Ok(300));
    assert_eq!(l.member(2).unwrap().owed_cents, 360);
    assert_eq!(l.member(1).unwrap().owed_cents, 0);
}

#[test]
fn returning_a_book_not_on_loan_fails() {
    let mut l = library();
    assert_eq!(l.return_book("nope", 3), Err(LoanError::NotOnLoan));
    l.checkout("978-3", 1, 0).unwrap();
    assert!(l.return_book("978-3", 1).is_ok());
    assert_eq!(l.return_book("978-3", 2), Err(LoanError::NotOnLoan));
}

#[test]
fn members_owing_too_much_are_blocked_until_they_pay() {
    let mut l = library();
    l.checkout("a", 1, 0).unwrap();
    assert_eq!(l.return_book("a", 14 + 13), Ok(260));
    assert_eq!(l.checkout("b", 1, 30), Err(LoanError::Blocked));
    l.pay(1, 10);
    assert_eq!(l.member(1).unwrap().owed_cents, 250);
    assert_eq!(l.checkout("b", 1, 30), Ok(()));
    l.pay(1, 1_000);
    assert_eq!(l.member(1).unwrap().owed_cents, 0);
}

#[test]
fn existing_errors_still_apply() {
    let mut l = library();
    assert_eq!(l.checkout("x", 9, 0), Err(LoanError::UnknownMember));
    l.checkout("x", 1, 0).unwrap();
    assert_eq!(l.checkout("x", 2, 0), Err(LoanError::AlreadyOnLoan));
}
