// Task: add `pub fn statement(opening: Money, txns: &[Txn]) -> Vec<String>`.
// It returns one line per transaction, "<label> <delta> = <balance>", where
// delta has an explicit '+' when it is not negative and balance is the
// running balance; a line whose balance is negative ends with " OVERDRAWN".
// The last line is "closing <balance>". Amounts use Money's Display.
use crate::money::Money;
use crate::txn::Txn;

/// The balance after applying every transaction.
pub fn closing_balance(opening: Money, txns: &[Txn]) -> Money {
    txns.iter().fold(opening, |balance, t| balance + t.delta())
}
