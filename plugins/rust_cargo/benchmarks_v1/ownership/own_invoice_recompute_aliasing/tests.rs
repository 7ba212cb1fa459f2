use super::*;

fn invoice() -> Invoice {
    let mut inv = Invoice::new();
    inv.add_line("consulting", 10_000, 20);
    inv.add_line("book", 2_999, 7);
    inv
}

#[test]
fn totals_after_recompute() {
    let mut inv = invoice();
    inv.recompute();
    assert_eq!(inv.totals(), (12_999, 2_000 + 209, 12_999 + 2_209));
    assert_eq!(inv.line_count(), 2);
}

#[test]
fn log_lists_every_line() {
    let mut inv = invoice();
    inv.recompute();
    assert_eq!(inv.log(), &["consulting: 10000 + 2000".to_string(), "book: 2999 + 209".to_string()]);
}

#[test]
fn recompute_does_not_double_count() {
    let mut inv = invoice();
    inv.recompute();
    inv.add_line("stamp", 100, 0);
    inv.recompute();
    assert_eq!(inv.totals(), (13_099, 2_209, 15_308));
    assert_eq!(inv.log().len(), 3);
    assert_eq!(inv.line_count(), 3);
}

#[test]
fn empty_invoice() {
    let mut inv = Invoice::new();
    inv.recompute();
    assert_eq!(inv.totals(), (0, 0, 0));
    assert!(inv.log().is_empty());
}
