use super::*;

#[test]
fn small_adjustments() {
    assert_eq!(apply_delta(500, 120), 620);
    assert_eq!(apply_delta(500, -120), 380);
}

#[test]
fn clamps_at_both_ends() {
    assert_eq!(apply_delta(990, 50), 1000);
    assert_eq!(apply_delta(100, -300), 0);
    assert_eq!(apply_delta(0, -1), 0);
}

#[test]
fn extreme_deltas() {
    assert_eq!(apply_delta(10, i32::MAX), 1000);
    assert_eq!(apply_delta(10, i32::MIN), 0);
    assert_eq!(apply_delta(500, 65_536), 1000);
}

#[test]
fn clamping_happens_after_every_step() {
    assert_eq!(apply_all(200, &[-500, 300]), 300);
    assert_eq!(apply_all(900, &[400, -100]), 900);
    assert_eq!(apply_all(42, &[]), 42);
}
