//! An in-process event bus.
pub mod bus;
pub mod event;
pub mod handlers;
