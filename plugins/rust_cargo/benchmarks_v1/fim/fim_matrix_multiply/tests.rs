use super::*;

#[test]
fn multiplies_rectangular_matrices() {
    let a = vec![vec![1, 2, 3], vec![4, 5, 6]];
    let b = vec![vec![7, 8], vec![9, 10], vec![11, 12]];
    assert_eq!(mat_mul(&a, &b), Some(vec![vec![58, 64], vec![139, 154]]));
}

#[test]
fn identity_keeps_the_matrix() {
    let id = vec![vec![1, 0], vec![0, 1]];
    let m = vec![vec![-3, 7], vec![2, 0]];
    assert_eq!(mat_mul(&m, &id), Some(m.clone()));
    assert_eq!(mat_mul(&id, &m), Some(m));
}

#[test]
fn row_times_column_is_a_dot_product() {
    assert_eq!(mat_mul(&[vec![1, -2, 3]], &[vec![4], vec![5], vec![-6]]), Some(vec![vec![-24]]));
}

#[test]
fn mismatched_or_ragged_inputs_are_rejected() {
    let a = vec![vec![1, 2, 3], vec![4, 5, 6]];
    assert_eq!(mat_mul(&a, &[vec![1, 2], vec![3, 4]]), None);
    assert_eq!(mat_mul(&a, &[vec![1, 2], vec![3], vec![5, 6]]), None);
    assert_eq!(mat_mul(&[vec![1, 2], vec![3]], &[vec![1], vec![2]]), None);
}

#[test]
fn empty_left_matrix_gives_empty_product() {
    assert_eq!(mat_mul(&[], &[vec![1, 2]]), Some(vec![]));
}
