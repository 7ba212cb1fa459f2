use crate::money::Money;

#[derive(Debug, Clone, PartialEq)]
pub enum Txn {
    Deposit { memo: String, amount: Money },
    Payment { memo: String, amount: Money },
    Fee(Money),
}

impl Txn {
    /// The effect on the balance: deposits add, payments and fees subtract.
    pub fn delta(&self) -> Money {
        match self {
            Txn::Deposit { amount, .. } => *amount,
            Txn::Payment { amount, .. } => Money(-amount.0),
            Txn::Fee(amount) => Money(-amount.0),
        }
    }

    pub fn label(&self) -> &str {
        match self {
            Txn::Deposit { memo, .. } | Txn::Payment { memo, .. } => memo,
            Txn::Fee(_) => "fee",
        }
    }
}
