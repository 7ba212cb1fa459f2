//! A lending library: catalogue, members and loans.
pub mod library;
pub mod member;
pub mod policy;
