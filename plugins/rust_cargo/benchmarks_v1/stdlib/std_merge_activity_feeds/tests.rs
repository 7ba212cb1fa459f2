use super::*;

fn feed(entries: &[(u64, &str)]) -> Vec<(u64, String)> {
    entries.iter().map(|&(t, s)| (t, s.to_string())).collect()
}

#[test]
fn no_feeds_or_empty_feeds() {
    assert!(merge_feeds(vec![]).is_empty());
    assert!(merge_feeds(vec![vec![], vec![]]).is_empty());
}

#[test]
fn single_feed_is_unchanged() {
    let f = feed(&[(1, "a"), (5, "b"), (5, "c")]);
    assert_eq!(merge_feeds(vec![f.clone()]), f);
}

#[test]
fn interleaves_by_time() {
    let merged = merge_feeds(vec![feed(&[(1, "a1"), (4, "a4"), (9, "a9")]), feed(&[(2, "b2"), (3, "b3")]), feed(&[(10, "c10")])]);
    assert_eq!(merged, feed(&[(1, "a1"), (2, "b2"), (3, "b3"), (4, "a4"), (9, "a9"), (10, "c10")]));
}

#[test]
fn equal_times_follow_feed_order_not_text() {
    let merged = merge_feeds(vec![feed(&[(5, "zeta"), (5, "alpha")]), feed(&[(5, "beta")]), feed(&[(1, "omega"), (5, "aaa")])]);
    assert_eq!(merged, feed(&[(1, "omega"), (5, "zeta"), (5, "alpha"), (5, "beta"), (5, "aaa")]));
}

#[test]
fn many_feeds() {
    let feeds: Vec<Vec<(u64, String)>> = (0..50u64).map(|k| (0..40u64).map(|i| (i * 50 + k, format!("{}-{}", k, i))).collect()).collect();
    let merged = merge_feeds(feeds);
    assert_eq!(merged.len(), 2_000);
    assert!(merged.iter().enumerate().all(|(i, (t, _))| *t == i as u64));
    assert_eq!(merged[51].1, "1-1");
}
