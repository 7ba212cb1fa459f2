use super::*;

#[test]
fn allows_up_to_the_limit_per_window() {
    let mut w = SlidingWindow::new(2, 1_000);
    assert!(w.allow(0));
    assert!(w.allow(10));
    assert!(!w.allow(20));
    assert!(!w.allow(999));
    assert!(w.allow(1_000));
    assert!(!w.allow(1_009));
    assert!(w.allow(1_010));
}

#[test]
fn rejected_events_do_not_count() {
    let mut w = SlidingWindow::new(1, 100);
    assert!(w.allow(0));
    assert!(!w.allow(50));
    assert!(w.allow(100));
    assert!(!w.allow(150));
    assert!(w.allow(200));
}

#[test]
fn a_long_pause_frees_the_whole_window() {
    let mut w = SlidingWindow::new(3, 10);
    assert!(w.allow(0) && w.allow(0) && w.allow(0));
    assert!(!w.allow(5));
    assert!(w.allow(1_000) && w.allow(1_000) && w.allow(1_000));
    assert!(!w.allow(1_009));
}

#[test]
fn zero_limit_never_allows() {
    let mut w = SlidingWindow::new(0, 10);
    assert!(!w.allow(0));
    assert!(!w.allow(1_000));
}
