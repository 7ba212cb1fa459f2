//! Password policy checks for an account service.
pub mod policy;
pub mod rule;
pub mod rules;
