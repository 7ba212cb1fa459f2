//! Access control for an admin console.
pub mod perm;
pub mod role;
