//! A small stock-keeping crate: items, a store, and restocking rules.
pub mod item;
pub mod store;
