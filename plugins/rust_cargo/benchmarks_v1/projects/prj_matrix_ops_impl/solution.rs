// Task: implement matrix arithmetic on top of `crate::matrix::Matrix`, using
// only its public API:
//   pub fn checked_add(a: &Matrix, b: &Matrix) -> Option<Matrix>   None if shapes differ
//   pub fn checked_mul(a: &Matrix, b: &Matrix) -> Option<Matrix>   None unless a.cols == b.rows
//   pub fn transpose(m: &Matrix) -> Matrix
// and the operators `impl Add for &Matrix` and `impl Mul for &Matrix`
// (Output = Matrix) that panic on a shape mismatch.
use crate::matrix::Matrix;
use std::ops::{Add, Mul};

pub fn checked_add(a: &Matrix, b: &Matrix) -> Option<Matrix> {
    if a.rows() != b.rows() || a.cols() != b.cols() {
        return None;
    }
    let mut out = Matrix::zeros(a.rows(), a.cols());
    for r in 0..a.rows() {
        for c in 0..a.cols() {
            out.set(r, c, a.get(r, c) + b.get(r, c));
        }
    }
    Some(out)
}

pub fn checked_mul(a: &Matrix, b: &Matrix) -> Option<Matrix> {
    if a.cols() != b.rows() {
        return None;
    }
    let mut out = Matrix::zeros(a.rows(), b.cols());
    for r in 0..a.rows() {
        for c in 0..b.cols() {
            let dot = (0..a.cols()).map(|k| a.get(r, k) * b.get(k, c)).sum();
            out.set(r, c, dot);
        }
    }
    Some(out)
}

pub fn transpose(m: &Matrix) -> Matrix {
    let mut out = Matrix::zeros(m.cols(), m.rows());
    for r in 0..m.rows() {
        for c in 0..m.cols() {
            out.set(c, r, m.get(r, c));
        }
    }
    out
}

impl Add for &Matrix {
    type Output = Matrix;

    fn add(self, other: &Matrix) -> Matrix {
        checked_add(self, other).expect("matrix shapes differ")
    }
}

impl Mul for &Matrix {
    type Output = Matrix;

    fn mul(self, other: &Matrix) -> Matrix {
        checked_mul(self, other).expect("matrix shapes do not allow multiplication")
    }
}
