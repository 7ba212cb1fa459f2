//! A background job scheduler.
pub mod job;
pub mod queue;
