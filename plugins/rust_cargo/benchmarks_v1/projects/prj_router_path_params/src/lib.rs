//! URL routing for a small web service.
pub mod pattern;
pub mod router;
