/// How long books may be kept and what lateness costs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeePolicy {
    pub loan_days: u32,
    pub cents_per_day: u32,
    /// The most one late return can cost.
    pub max_fee_cents: u32,
    /// Members owing more than this cannot borrow.
    pub block_above_cents: u32,
}

impl FeePolicy {
    /// The fee for returning a book borrowed on `borrowed_day` on `returned_day`.
    pub fn fee(&self, borrowed_day: u32, returned_day: u32) -> u32 {
        let due = borrowed_day + self.loan_days;
        if returned_day <= due {
            0
        } else {
            ((returned_day - due) * self.cents_per_day).min(self.max_fee_cents)
        }
    }
}
