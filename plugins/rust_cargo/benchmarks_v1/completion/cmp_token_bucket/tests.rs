use super::*;

#[test]
fn starts_full() {
    let mut bucket = TokenBucket::new(3, 100, 0);
    assert_eq!(bucket.available(0), 3);
}

#[test]
fn take_succeeds_only_with_enough_tokens() {
    let mut bucket = TokenBucket::new(3, 100, 0);
    assert!(bucket.try_take(2, 0));
    assert!(!bucket.try_take(2, 0));
    assert_eq!(bucket.available(0), 1);
    assert!(bucket.try_take(1, 0));
    assert!(!bucket.try_take(1, 50));
}

#[test]
fn refills_one_token_per_interval_keeping_partial_time() {
    let mut bucket = TokenBucket::new(5, 100, 1_000);
    assert!(bucket.try_take(5, 1_000));
    assert_eq!(bucket.available(1_250), 2);
    assert_eq!(bucket.available(1_299), 2);
    assert_eq!(bucket.available(1_300), 3);
}

#[test]
fn never_exceeds_capacity() {
    let mut bucket = TokenBucket::new(4, 10, 0);
    assert!(bucket.try_take(1, 0));
    assert_eq!(bucket.available(10_000), 4);
    assert!(bucket.try_take(4, 10_000));
    assert!(!bucket.try_take(1, 10_000));
    assert_eq!(bucket.available(10_010), 1);
}

#[test]
fn taking_zero_always_succeeds() {
    let mut bucket = TokenBucket::new(1, 100, 0);
    assert!(bucket.try_take(1, 0));
    assert!(bucket.try_take(0, 0));
}
