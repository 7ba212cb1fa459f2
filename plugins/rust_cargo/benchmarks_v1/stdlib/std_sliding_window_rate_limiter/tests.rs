use super::*;

#[test]
fn limit_within_one_window() {
    let mut limiter = RateLimiter::new(2, 1_000);
    assert!(limiter.try_acquire(0));
    assert!(limiter.try_acquire(10));
    assert!(!limiter.try_acquire(20));
    assert!(!limiter.try_acquire(999));
}

#[test]
fn window_slides() {
    let mut limiter = RateLimiter::new(2, 1_000);
    assert!(limiter.try_acquire(0));
    assert!(limiter.try_acquire(10));
    assert!(limiter.try_acquire(1_000));
    assert!(!limiter.try_acquire(1_009));
    assert!(limiter.try_acquire(1_010));
    assert!(!limiter.try_acquire(1_999));
    assert!(limiter.try_acquire(2_000));
}

#[test]
fn rejected_requests_do_not_count() {
    let mut limiter = RateLimiter::new(1, 100);
    assert!(limiter.try_acquire(0));
    for t in 1..100 {
        assert!(!limiter.try_acquire(t));
    }
    assert!(limiter.try_acquire(100));
}

#[test]
fn zero_limit_rejects_everything() {
    let mut limiter = RateLimiter::new(0, 10);
    assert!(!limiter.try_acquire(0));
    assert!(!limiter.try_acquire(1_000_000));
}

#[test]
fn burst_at_same_instant_and_huge_times() {
    let mut limiter = RateLimiter::new(3, u64::MAX);
    assert!(limiter.try_acquire(u64::MAX - 5));
    assert!(limiter.try_acquire(u64::MAX - 5));
    assert!(limiter.try_acquire(u64::MAX));
    assert!(!limiter.try_acquire(u64::MAX));
}
