//! Importing HR records from CSV exports.
pub mod employee;
pub mod reader;
pub mod row;
