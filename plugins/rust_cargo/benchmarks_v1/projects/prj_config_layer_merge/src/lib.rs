//! Layered application settings: defaults, file, environment, command line.
pub mod merge;
pub mod settings;
