// Task: make `parse_config` report problems instead of panicking. It must
// return `Result<Config, ConfigError>` where `ConfigError` is an enum with the
// variants `MissingEquals { line: usize }`, `EmptyKey { line: usize }` and
// `DuplicateKey(String)` (line numbers are 1-based), deriving Debug and
// PartialEq. Valid input must give the same Config as before.
use std::collections::BTreeMap;

#[derive(Debug, Default, PartialEq)]
pub struct Config {
    pub values: BTreeMap<String, String>,
}

/// Parses `key = value` lines; blank lines and lines starting with '#' are skipped.
pub fn parse_config(text: &str) -> Config {
    let mut config = Config::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let eq = line.find('=').unwrap_or_else(|| panic!("line {}: missing '='", i + 1));
        let key = line[..eq].trim();
        let value = line[eq + 1..].trim();
        if key.is_empty() {
            panic!("line {}: empty key", i + 1);
        }
        if config.values.contains_key(key) {
            panic!("duplicate key {}", key);
        }
        config.values.insert(key.to_string(), value.to_string());
    }
    config
}
