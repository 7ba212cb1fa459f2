//! Plain-text monthly reports.
pub mod layout;
pub mod render;
pub mod report;
