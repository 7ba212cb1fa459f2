use super::*;

fn loans() -> Vec<Loan> {
    vec![
        Loan { id: 1, due_day: 10, returned: false },
        Loan { id: 2, due_day: 20, returned: false },
        Loan { id: 3, due_day: 5, returned: true },
        Loan { id: 4, due_day: 1, returned: false },
    ]
}

#[test]
fn overdue_ids_is_lazy_iterator() {
    let l = loans();
    let mut it = overdue_ids(&l, 12);
    assert_eq!(it.next(), Some(1));
    assert_eq!(it.next(), Some(4));
    assert_eq!(it.next(), None);
}

#[test]
fn due_today_is_not_overdue() {
    let l = loans();
    assert_eq!(overdue_ids(&l, 10).collect::<Vec<_>>(), vec![4]);
    assert_eq!(overdue_ids(&l, 1).count(), 0);
}

#[test]
fn fees_are_capped_per_loan() {
    let l = loans();
    // loan 1: 2 days = 50, loan 4: 11 days = 275
    assert_eq!(late_fee_total(&l, 12), 325);
    // loan 1: 30 days capped 500, loan 2: 20 days = 500 (exactly), loan 4 capped 500
    assert_eq!(late_fee_total(&l, 40), 1500);
}

#[test]
fn nothing_overdue() {
    assert_eq!(late_fee_total(&[], 100), 0);
    assert_eq!(overdue_ids(&[], 100).count(), 0);
}
