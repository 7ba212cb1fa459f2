use super::*;

fn done(pairs: &[(&str, u64)]) -> Vec<(String, u64)> {
    pairs.iter().map(|&(n, t)| (n.to_string(), t)).collect()
}

#[test]
fn jobs_take_turns() {
    assert_eq!(round_robin(&[("a", 5), ("b", 2), ("c", 4)], 2), done(&[("b", 4), ("c", 10), ("a", 11)]));
}

#[test]
fn large_quantum_is_first_come_first_served() {
    assert_eq!(round_robin(&[("x", 3), ("y", 1)], 10), done(&[("x", 3), ("y", 4)]));
}

#[test]
fn zero_quantum_counts_as_one() {
    assert_eq!(round_robin(&[("p", 2), ("q", 1)], 0), done(&[("q", 2), ("p", 3)]));
}

#[test]
fn zero_bursts_finish_immediately() {
    assert_eq!(round_robin(&[("z", 0), ("w", 1), ("v", 0)], 2), done(&[("z", 0), ("w", 1), ("v", 1)]));
}

#[test]
fn no_jobs() {
    assert!(round_robin(&[], 3).is_empty());
}
