use super::*;

fn sample() -> Vec<Vec<usize>> {
    // 0 -> 1 -> 2 -> 3, plus a shortcut 0 -> 4 -> 3, and 5 isolated.
    vec![vec![1, 4], vec![2], vec![3], vec![], vec![3], vec![]]
}

#[test]
fn same_router_is_zero_hops() {
    assert_eq!(min_hops(&sample(), 2, 2), Some(0));
    assert_eq!(min_hops(&sample(), 5, 5), Some(0));
}

#[test]
fn shortest_path_is_chosen() {
    assert_eq!(min_hops(&sample(), 0, 3), Some(2));
    assert_eq!(min_hops(&sample(), 1, 3), Some(2));
    assert_eq!(min_hops(&sample(), 0, 2), Some(2));
}

#[test]
fn links_are_one_way() {
    assert_eq!(min_hops(&sample(), 3, 0), None);
    assert_eq!(min_hops(&sample(), 0, 5), None);
}

#[test]
fn out_of_range_indices() {
    assert_eq!(min_hops(&sample(), 0, 6), None);
    assert_eq!(min_hops(&sample(), 9, 0), None);
    assert_eq!(min_hops(&[], 0, 0), None);
    let with_bad_link = vec![vec![7, 1], vec![]];
    assert_eq!(min_hops(&with_bad_link, 0, 1), Some(1));
}

#[test]
fn cycles_terminate() {
    let ring = vec![vec![1], vec![2], vec![0], vec![]];
    assert_eq!(min_hops(&ring, 0, 2), Some(2));
    assert_eq!(min_hops(&ring, 0, 3), None);
}
