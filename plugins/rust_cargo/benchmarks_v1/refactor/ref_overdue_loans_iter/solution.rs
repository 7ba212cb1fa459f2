// Task: remove the explicit loops. `overdue_ids` must return
// `impl Iterator<Item = u32> + '_` (same ids, same order) instead of a Vec, and
// `late_fee_total` must be computed with an iterator chain. Behaviour stays
// the same.

pub struct Loan {
    pub id: u32,
    pub due_day: u32,
    pub returned: bool,
}

fn overdue(loans: &[Loan], today: u32) -> impl Iterator<Item = &Loan> + '_ {
    loans.iter().filter(move |loan| !loan.returned && loan.due_day < today)
}

/// Ids of loans that are not returned and whose due day is before `today`.
pub fn overdue_ids(loans: &[Loan], today: u32) -> impl Iterator<Item = u32> + '_ {
    overdue(loans, today).map(|loan| loan.id)
}

/// 25 cents per day late for every overdue loan, capped at 500 cents per loan.
pub fn late_fee_total(loans: &[Loan], today: u32) -> u32 {
    overdue(loans, today).map(|loan| ((today - loan.due_day) * 25).min(500)).sum()
}
