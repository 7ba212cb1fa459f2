// Task: implement matrix arithmetic on top of `crate::matrix::Matrix`, using
// only its public API:
//   pub fn checked_add(a: &Matrix, b: &Matrix) -> Option<Matrix>   None if shapes differ
//   pub fn checked_mul(a: &Matrix, b: &Matrix) -> Option<Matrix>   None unless a.cols == b.rows
//   pub fn transpose(m: &Matrix) -> Matrix
// and the operators `impl Add for &Matrix` and `impl Mul for &Matrix`
// (Output = Matrix) that panic on a shape mismatch.
use crate::matrix::Matrix;
