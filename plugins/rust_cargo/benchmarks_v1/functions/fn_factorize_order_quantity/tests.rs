use super::*;

#[test]
fn zero_and_one() {
    assert!(factorize(0).is_empty());
    assert!(factorize(1).is_empty());
}

#[test]
fn small_numbers() {
    assert_eq!(factorize(2), vec![(2, 1)]);
    assert_eq!(factorize(360), vec![(2, 3), (3, 2), (5, 1)]);
    assert_eq!(factorize(1024), vec![(2, 10)]);
    assert_eq!(factorize(97), vec![(97, 1)]);
}

#[test]
fn square_of_prime() {
    assert_eq!(factorize(49), vec![(7, 2)]);
    assert_eq!(factorize(1_000_003 * 1_000_003), vec![(1_000_003, 2)]);
}

#[test]
fn large_prime_factor() {
    assert_eq!(factorize(6 * 1_000_000_007), vec![(2, 1), (3, 1), (1_000_000_007, 1)]);
}

#[test]
fn u64_max() {
    assert_eq!(
        factorize(u64::MAX),
        vec![(3, 1), (5, 1), (17, 1), (257, 1), (641, 1), (65_537, 1), (6_700_417, 1)]
    );
    assert_eq!(factorize(1 << 63), vec![(2, 63)]);
}
