use super::*;

fn sample() -> Vec<Vec<(usize, u64)>> {
    vec![
        vec![(1, 10), (2, 3)],
        vec![(3, 2)],
        vec![(1, 4), (3, 8)],
        vec![],
        vec![(0, 1)],
    ]
}

#[test]
fn same_depot_is_free() {
    assert_eq!(fastest_route(&sample(), 3, 3), Some(0));
}

#[test]
fn cheaper_detour_wins() {
    assert_eq!(fastest_route(&sample(), 0, 1), Some(7));
    assert_eq!(fastest_route(&sample(), 0, 3), Some(9));
    assert_eq!(fastest_route(&sample(), 4, 3), Some(10));
}

#[test]
fn unreachable_and_out_of_range() {
    assert_eq!(fastest_route(&sample(), 3, 0), None);
    assert_eq!(fastest_route(&sample(), 0, 4), None);
    assert_eq!(fastest_route(&sample(), 0, 5), None);
    assert_eq!(fastest_route(&sample(), 7, 0), None);
    assert_eq!(fastest_route(&[vec![(9, 1), (1, 5)], vec![]], 0, 1), Some(5));
}

#[test]
fn zero_minute_roads_and_cycles() {
    let roads = vec![vec![(1, 0)], vec![(0, 0), (2, 0)], vec![(0, 5)]];
    assert_eq!(fastest_route(&roads, 0, 2), Some(0));
}

#[test]
fn long_chain_with_shortcuts() {
    let n = 5_000;
    let mut roads: Vec<Vec<(usize, u64)>> = (0..n).map(|i| if i + 1 < n { vec![(i + 1, 2)] } else { vec![] }).collect();
    for i in (0..n - 10).step_by(10) {
        roads[i].push((i + 10, 15));
    }
    assert_eq!(fastest_route(&roads, 0, n - 1), Some(499 * 15 + 9 * 2));
}
