use super::*;

#[test]
fn limit_applies_within_a_window() {
    let mut rl = RateLimiter::new(2, 1_000);
    assert!(rl.allow(0));
    assert!(rl.allow(10));
    assert!(!rl.allow(999));
}

#[test]
fn a_new_window_opens_exactly_at_the_boundary() {
    let mut rl = RateLimiter::new(1, 1_000);
    assert!(rl.allow(500));
    assert!(!rl.allow(1_499));
    assert!(rl.allow(1_500));
    assert!(!rl.allow(2_499));
    assert!(rl.allow(2_500));
}

#[test]
fn new_window_starts_at_the_request_time() {
    let mut rl = RateLimiter::new(1, 100);
    assert!(rl.allow(0));
    assert!(rl.allow(250));
    assert!(!rl.allow(349));
    assert!(rl.allow(350));
}

#[test]
fn zero_limit_rejects_everything() {
    let mut rl = RateLimiter::new(0, 100);
    assert!(!rl.allow(0));
    assert!(!rl.allow(1_000));
}
