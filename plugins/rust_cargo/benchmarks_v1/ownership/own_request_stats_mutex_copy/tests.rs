use super::*;

#[test]
fn merges_all_workers() {
    let logs = vec![vec![(200, 512), (503, 0)], vec![(404, 100)], vec![(500, 10), (200, 1_000)]];
    assert_eq!(aggregate(logs), Stats { requests: 5, errors: 2, bytes: 1_622 });
}

#[test]
fn many_workers_lose_nothing() {
    let logs: Vec<Vec<(u16, u64)>> = (0..10).map(|_| vec![(200, 3); 300]).collect();
    assert_eq!(aggregate(logs), Stats { requests: 3_000, errors: 0, bytes: 9_000 });
}

#[test]
fn no_traffic() {
    assert_eq!(aggregate(Vec::new()), Stats::default());
    assert_eq!(aggregate(vec![Vec::new()]), Stats::default());
}
