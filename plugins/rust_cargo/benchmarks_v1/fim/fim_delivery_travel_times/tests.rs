use super::*;

fn network() -> Vec<Vec<(usize, u32)>> {
    vec![
        vec![(1, 4), (2, 1)],
        vec![(3, 1)],
        vec![(1, 2), (3, 7)],
        vec![],
        vec![(0, 1)],
    ]
}

#[test]
fn shortest_times_from_the_depot() {
    assert_eq!(travel_times(&network(), 0), vec![Some(0), Some(3), Some(1), Some(4), None]);
}

#[test]
fn roads_are_one_way() {
    assert_eq!(travel_times(&network(), 3), vec![None, None, None, Some(0), None]);
    assert_eq!(travel_times(&network(), 4), vec![Some(1), Some(4), Some(2), Some(5), Some(0)]);
}

#[test]
fn parallel_roads_use_the_fastest() {
    let roads = vec![vec![(1, 10), (1, 3)], vec![]];
    assert_eq!(travel_times(&roads, 0), vec![Some(0), Some(3)]);
}

#[test]
fn long_routes_do_not_overflow() {
    let roads = vec![vec![(1, u32::MAX)], vec![(2, u32::MAX)], vec![]];
    assert_eq!(travel_times(&roads, 0), vec![Some(0), Some(u64::from(u32::MAX)), Some(2 * u64::from(u32::MAX))]);
}

#[test]
fn unknown_start() {
    assert_eq!(travel_times(&network(), 9), vec![None; 5]);
    assert!(travel_times(&[], 0).is_empty());
}
