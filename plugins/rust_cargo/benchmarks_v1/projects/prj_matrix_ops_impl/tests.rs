use crate::matrix::Matrix;
use crate::ops::{checked_add, checked_mul, transpose};

fn m(rows: &[&[i64]]) -> Matrix {
    Matrix::from_rows(&rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>()).unwrap()
}

#[test]
fn addition() {
    let a = m(&[&[1, 2], &[3, 4]]);
    let b = m(&[&[10, 20], &[30, -4]]);
    assert_eq!(&a + &b, m(&[&[11, 22], &[33, 0]]));
    assert_eq!(checked_add(&a, &m(&[&[1, 2]])), None);
}

#[test]
fn multiplication() {
    let a = m(&[&[1, 2, 3], &[4, 5, 6]]);
    let b = m(&[&[7, 8], &[9, 10], &[11, 12]]);
    assert_eq!(&a * &b, m(&[&[58, 64], &[139, 154]]));
    assert_eq!(checked_mul(&a, &a), None);
    let v = checked_mul(&b, &a).unwrap();
    assert_eq!((v.rows(), v.cols()), (3, 3));
}

#[test]
fn transpose_swaps_shape() {
    let a = m(&[&[1, 2, 3], &[4, 5, 6]]);
    assert_eq!(transpose(&a), m(&[&[1, 4], &[2, 5], &[3, 6]]));
    assert_eq!(transpose(&transpose(&a)), a);
}

#[test]
#[should_panic]
fn operator_panics_on_mismatch() {
    let _ = &m(&[&[1, 2]]) + &m(&[&[1], &[2]]);
}

#[test]
fn identity_multiplication() {
    let i = m(&[&[1, 0], &[0, 1]]);
    let a = m(&[&[5, -6], &[7, 8]]);
    assert_eq!(&i * &a, a);
}
