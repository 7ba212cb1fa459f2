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

/// One line per transaction with the running balance, then the closing line.
pub fn statement(opening: Money, txns: &[Txn]) -> Vec<String> {
    let mut balance = opening;
    let mut lines = Vec::with_capacity(txns.len() + 1);
    for t in txns {
        let delta = t.delta();
        balance = balance + delta;
        let sign = if delta.is_negative() { "" } else { "+" };
        let mut line = format!("{} {}{} = {}", t.label(), sign, delta, balance);
        if balance.is_negative() {
            line.push_str(" OVERDRAWN");
        }
        lines.push(line);
    }
    lines.push(format!("closing {}", balance));
    lines
}
