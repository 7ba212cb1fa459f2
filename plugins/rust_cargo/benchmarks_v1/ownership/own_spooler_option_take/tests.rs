use super::*;

#[test]
fn documents_print_in_submission_order() {
    let mut s = Spooler::new();
    s.submit("a.pdf");
    s.submit("b.pdf");
    s.submit("c.pdf");
    assert_eq!(s.current(), Some("a.pdf"));
    assert_eq!(s.finish_current().as_deref(), Some("a.pdf"));
    assert_eq!(s.finish_current().as_deref(), Some("b.pdf"));
    assert_eq!(s.current(), Some("c.pdf"));
    assert_eq!(s.done(), &["a.pdf".to_string(), "b.pdf".to_string()]);
}

#[test]
fn cancelled_documents_are_not_done() {
    let mut s = Spooler::new();
    s.submit("x");
    s.submit("y");
    assert_eq!(s.cancel_current().as_deref(), Some("x"));
    assert_eq!(s.current(), Some("y"));
    assert_eq!(s.finish_current().as_deref(), Some("y"));
    assert_eq!(s.done(), &["y".to_string()]);
}

#[test]
fn idle_printer() {
    let mut s = Spooler::new();
    assert_eq!(s.finish_current(), None);
    assert_eq!(s.cancel_current(), None);
    s.submit("z");
    s.finish_current();
    assert_eq!(s.current(), None);
    s.submit("w");
    assert_eq!(s.current(), Some("w"));
}
