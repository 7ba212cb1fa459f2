use super::*;

fn check(input: &[i32], low: i32, high: i32) -> (usize, usize) {
    let mut data = input.to_vec();
    let (a, b) = partition_readings(&mut data, low, high);
    assert!(a <= b && b <= data.len());
    assert!(data[..a].iter().all(|&v| v < low), "{:?}", data);
    assert!(data[a..b].iter().all(|&v| low <= v && v <= high), "{:?}", data);
    assert!(data[b..].iter().all(|&v| v > high), "{:?}", data);
    let mut before = input.to_vec();
    let mut after = data.clone();
    before.sort_unstable();
    after.sort_unstable();
    assert_eq!(before, after, "the values must be preserved");
    (a, b)
}

#[test]
fn empty_slice() {
    assert_eq!(check(&[], 0, 10), (0, 0));
}

#[test]
fn mixed_readings() {
    assert_eq!(check(&[15, -3, 7, 22, 0, 10, 11, -8, 5], 0, 10), (2, 6));
}

#[test]
fn all_in_one_group() {
    assert_eq!(check(&[1, 2, 3], 5, 9), (3, 3));
    assert_eq!(check(&[6, 7, 8], 5, 9), (0, 3));
    assert_eq!(check(&[10, 11, 12], 5, 9), (0, 0));
}

#[test]
fn bounds_are_inclusive() {
    assert_eq!(check(&[5, 9, 4, 10, 5, 9], 5, 9), (1, 5));
}

#[test]
fn single_point_range_and_extremes() {
    assert_eq!(check(&[3, 3, 1, 4, 3, i32::MIN, i32::MAX], 3, 3), (2, 5));
}
