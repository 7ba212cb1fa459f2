//! Querying structured service logs.
pub mod query;
pub mod record;
