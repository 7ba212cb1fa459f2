use super::*;

#[test]
fn yields_consecutive_differences() {
    let r = [1000, 1012, 1012, 1100];
    let mut it = trip_distances(&r);
    assert_eq!(it.next(), Some(12));
    assert_eq!(it.next(), Some(0));
    assert_eq!(it.next(), Some(88));
    assert_eq!(it.next(), None);
}

#[test]
fn works_on_sub_slices() {
    let r = vec![5, 10, 30, 31];
    let v: Vec<u32> = trip_distances(&r[1..]).collect();
    assert_eq!(v, vec![20, 1]);
}

#[test]
fn short_input() {
    assert_eq!(trip_distances(&[7]).count(), 0);
    assert_eq!(longest_trip(&[7]), None);
    assert_eq!(longest_trip(&[]), None);
}

#[test]
fn longest_trip_found() {
    assert_eq!(longest_trip(&[0, 40, 45, 85]), Some(40));
    assert_eq!(longest_trip(&[3, 3]), Some(0));
}
