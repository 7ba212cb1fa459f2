//! Parsing of a small `key=value` server configuration.
//!
//! Besides `impl fmt::Display for ConfigError` (below), this module provides
//! `impl Error for ConfigError`, whose `source()` is the inner
//! `ParseIntError` for `BadNumber` and `None` otherwise;
//! `impl From<ParseIntError> for ConfigError`, producing `BadNumber`; and
//! `pub fn parse_config(text: &str) -> Result<ServerConfig, ConfigError>`.
//!
//! `parse_config` reads the text line by line (1-based line numbers). Blank
//! lines and lines starting with `#` (after trimming) are skipped. Every
//! other line is `key=value`, split at the first `=`, key and value trimmed.
//! Keys: `host` (a string), `port` (a `u16`, default 8080) and `workers` (a
//! `u32`, default 4); a later line overrides an earlier one. `host` has no
//! default. Numbers are parsed with `str::parse` and the error is converted
//! with `?`.

use std::error::Error;
use std::fmt;
use std::num::ParseIntError;

/// Errors from parsing a server configuration.
#[derive(Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A non-blank, non-comment line without `=`; holds its line number.
    MissingEquals(usize),
    /// A key other than `host`, `port` or `workers`.
    UnknownKey(String),
    /// A `port` or `workers` value that is not a valid number.
    BadNumber(ParseIntError),
    /// No `host` line.
    MissingHost,
}

/// A parsed server configuration.
#[derive(Debug, PartialEq, Eq)]
pub struct ServerConfig {
    pub host: String,
    pub port: u16,
    pub workers: u32,
}

/// Messages: `line N: expected key=value`, ``unknown key `K` ``,
/// `invalid number: <the ParseIntError's message>`, `missing host`.
impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
