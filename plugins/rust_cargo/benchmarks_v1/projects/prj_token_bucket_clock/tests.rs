use crate::bucket::TokenBucket;
use crate::clock::ManualClock;

#[test]
fn starts_full_and_drains() {
    let clock = ManualClock::new(1_000);
    let mut b = TokenBucket::new(&clock, 3, 1);
    assert_eq!(b.available(), 3);
    assert!(b.try_acquire(2));
    assert!(b.try_acquire(1));
    assert!(!b.try_acquire(1));
}

#[test]
fn failed_acquire_takes_nothing() {
    let clock = ManualClock::new(0);
    let mut b = TokenBucket::new(&clock, 5, 1);
    assert!(!b.try_acquire(6));
    assert_eq!(b.available(), 5);
}

#[test]
fn refills_with_time_and_keeps_fractions() {
    let clock = ManualClock::new(0);
    let mut b = TokenBucket::new(&clock, 4, 4);
    assert!(b.try_acquire(4));
    clock.advance(100);
    assert_eq!(b.available(), 0);
    clock.advance(100);
    assert_eq!(b.available(), 0);
    clock.advance(100);
    assert_eq!(b.available(), 1);
    clock.advance(500);
    assert_eq!(b.available(), 3);
}

#[test]
fn never_exceeds_capacity() {
    let clock = ManualClock::new(0);
    let mut b = TokenBucket::new(&clock, 2, 10);
    clock.advance(60_000);
    assert_eq!(b.available(), 2);
    assert!(b.try_acquire(2));
    assert!(!b.try_acquire(1));
    clock.advance(100);
    assert!(b.try_acquire(1));
}

#[test]
fn zero_rate_never_refills() {
    let clock = ManualClock::new(0);
    let mut b = TokenBucket::new(&clock, 1, 0);
    assert!(b.try_acquire(1));
    clock.advance(1_000_000);
    assert!(!b.try_acquire(1));
}
