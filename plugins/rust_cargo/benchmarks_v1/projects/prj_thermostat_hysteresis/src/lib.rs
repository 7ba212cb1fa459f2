//! A room climate controller.
pub mod controller;
pub mod sensor;
pub mod settings;
