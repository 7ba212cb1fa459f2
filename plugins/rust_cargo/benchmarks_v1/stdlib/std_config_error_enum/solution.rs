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
        match self {
            ConfigError::MissingEquals(line) => write!(f, "line {}: expected key=value", line),
            ConfigError::UnknownKey(key) => write!(f, "unknown key `{}`", key),
            ConfigError::BadNumber(err) => write!(f, "invalid number: {}", err),
            ConfigError::MissingHost => write!(f, "missing host"),
        }
    }
}

impl Error for ConfigError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ConfigError::BadNumber(err) => Some(err),
            _ => None,
        }
    }
}

impl From<ParseIntError> for ConfigError {
    fn from(err: ParseIntError) -> Self {
        ConfigError::BadNumber(err)
    }
}

/// Parses a configuration as described in the module documentation.
pub fn parse_config(text: &str) -> Result<ServerConfig, ConfigError> {
    let mut host = None;
    let mut port = 8080;
    let mut workers = 4;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once('=').ok_or(ConfigError::MissingEquals(index + 1))?;
        let value = value.trim();
        match key.trim() {
            "host" => host = Some(value.to_string()),
            "port" => port = value.parse()?,
            "workers" => workers = value.parse()?,
            other => return Err(ConfigError::UnknownKey(other.to_string())),
        }
    }
    Ok(ServerConfig { host: host.ok_or(ConfigError::MissingHost)?, port, workers })
}
