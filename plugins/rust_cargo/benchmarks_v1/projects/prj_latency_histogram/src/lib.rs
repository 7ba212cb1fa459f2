//! Request latency metrics.
pub mod buckets;
pub mod histogram;
