//! Text statistics for editorial tooling.
pub mod summary;
pub mod tokenize;
