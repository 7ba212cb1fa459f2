use super::*;

#[test]
fn yields_valid_values_lazily() {
    let raw = [215, NO_READING, 900, -401, -400, 850];
    let mut it = valid_celsius(&raw);
    assert_eq!(it.next(), Some(21.5));
    assert_eq!(it.next(), Some(-40.0));
    assert_eq!(it.next(), Some(85.0));
    assert_eq!(it.next(), None);
}

#[test]
fn works_on_a_sub_slice() {
    let raw = [100, 200, 300, 400];
    let v: Vec<f64> = valid_celsius(&raw[1..3]).collect();
    assert_eq!(v, vec![20.0, 30.0]);
}

#[test]
fn iterator_can_be_chained() {
    let raw = [10, 20, NO_READING, 30];
    let total: f64 = valid_celsius(&raw).map(|c| c * 10.0).sum();
    assert!((total - 60.0).abs() < 1e-9);
}

#[test]
fn mean_skips_invalid_and_handles_empty() {
    assert_eq!(mean_celsius(&[NO_READING, 2000]), None);
    assert_eq!(mean_celsius(&[]), None);
    let m = mean_celsius(&[100, NO_READING, 300]).unwrap();
    assert!((m - 20.0).abs() < 1e-9);
}
