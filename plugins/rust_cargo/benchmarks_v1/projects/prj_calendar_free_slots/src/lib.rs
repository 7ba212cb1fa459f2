//! Meeting-room scheduling.
pub mod calendar;
pub mod interval;
