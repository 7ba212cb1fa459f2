//! Small dense matrices.
pub mod matrix;
pub mod ops;
