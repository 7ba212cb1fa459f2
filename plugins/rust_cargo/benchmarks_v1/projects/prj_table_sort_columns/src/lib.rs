//! In-memory tables for a reporting tool.
pub mod cell;
pub mod sort;
pub mod table;
