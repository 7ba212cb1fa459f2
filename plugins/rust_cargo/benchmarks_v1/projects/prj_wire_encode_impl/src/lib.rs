//! A tiny binary wire format for device telemetry.
pub mod codec;
pub mod telemetry;
