//! Rate limiting with an injectable clock.
pub mod bucket;
pub mod clock;
