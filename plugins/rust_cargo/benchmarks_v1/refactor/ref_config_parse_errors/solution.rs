// Task: make `parse_config` report problems instead of panicking. It must
// return `Result<Config, ConfigError>` where `ConfigError` is an enum with the
// variants `MissingEquals { line: usize }`, `EmptyKey { line: usize }` and
// `DuplicateKey(String)` (line numbers are 1-based), deriving Debug and
// PartialEq. Valid input must give the same Config as before.
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

#[derive(Debug, Default, PartialEq)]
pub struct Config {
    pub values: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    MissingEquals { line: usize },
    EmptyKey { line: usize },
    DuplicateKey(String),
}

/// Parses `key = value` lines; blank lines and lines starting with '#' are skipped.
pub fn parse_config(text: &str) -> Result<Config, ConfigError> {
    let mut config = Config::default();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once('=').ok_or(ConfigError::MissingEquals { line: line_no })?;
        let key = key.trim();
        if key.is_empty() {
            return Err(ConfigError::EmptyKey { line: line_no });
        }
        match config.values.entry(key.to_string()) {
            Entry::Occupied(_) => return Err(ConfigError::DuplicateKey(key.to_string())),
            Entry::Vacant(slot) => {
                slot.insert(value.trim().to_string());
            }
        }
    }
    Ok(config)
}
