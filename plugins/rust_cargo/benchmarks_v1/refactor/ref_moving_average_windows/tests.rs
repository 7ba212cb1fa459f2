use super::*;

#[test]
fn averages_each_window() {
    let data = [1.0, 2.0, 3.0, 4.0, 5.0];
    let v: Vec<f64> = moving_average(&data, 3).collect();
    assert_eq!(v, vec![2.0, 3.0, 4.0]);
}

#[test]
fn works_on_sub_slices() {
    let data = vec![10.0, 0.0, 4.0, 8.0];
    let mut it = moving_average(&data[1..], 2);
    assert_eq!(it.next(), Some(2.0));
    assert_eq!(it.next(), Some(6.0));
    assert_eq!(it.next(), None);
}

#[test]
fn too_short_input_gives_nothing() {
    assert_eq!(moving_average(&[1.0, 2.0], 3).count(), 0);
    assert_eq!(moving_average(&[], 1).count(), 0);
}

#[test]
fn zero_window_gives_nothing() {
    assert_eq!(moving_average(&[1.0, 2.0, 3.0], 0).count(), 0);
}

#[test]
fn window_of_one_is_identity() {
    let v: Vec<f64> = moving_average(&[7.5, -1.0], 1).collect();
    assert_eq!(v, vec![7.5, -1.0]);
}
