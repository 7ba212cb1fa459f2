use crate::money::Money;
use crate::statement::{closing_balance, statement};
use crate::txn::Txn;

fn txns() -> Vec<Txn> {
    vec![
        Txn::Deposit { memo: "salary".to_string(), amount: Money(250_000) },
        Txn::Payment { memo: "rent".to_string(), amount: Money(260_050) },
        Txn::Fee(Money(500)),
        Txn::Deposit { memo: "refund".to_string(), amount: Money(20_000) },
    ]
}

#[test]
fn lines_show_running_balance() {
    let lines = statement(Money(1_000), &txns());
    assert_eq!(lines[0], "salary +2500.00 = 2510.00");
    assert_eq!(lines[1], "rent -2600.50 = -90.50 OVERDRAWN");
    assert_eq!(lines[2], "fee -5.00 = -95.50 OVERDRAWN");
    assert_eq!(lines[3], "refund +200.00 = 104.50");
}

#[test]
fn closing_line_matches_closing_balance() {
    let t = txns();
    let lines = statement(Money(1_000), &t);
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[4], format!("closing {}", closing_balance(Money(1_000), &t)));
    assert_eq!(lines[4], "closing 104.50");
}

#[test]
fn empty_statement_has_only_closing() {
    assert_eq!(statement(Money(-7), &[]), vec!["closing -0.07".to_string()]);
}

#[test]
fn zero_amount_gets_plus_sign() {
    let lines = statement(Money(0), &[Txn::Deposit { memo: "adj".to_string(), amount: Money(0) }]);
    assert_eq!(lines[0], "adj +0.00 = 0.00");
}
