//! Release versions for a package index.
pub mod ordering;
pub mod version;
