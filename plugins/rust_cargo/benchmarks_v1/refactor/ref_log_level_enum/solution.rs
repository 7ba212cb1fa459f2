// Task: replace the stringly-typed log levels with a `LogLevel` enum
// (variants Debug, Info, Warn, Error, ordered from least to most severe) that
// implements `FromStr` (case-insensitive, `Err(String)` naming the bad input)
// and `Ord`. `Entry::level` becomes a `LogLevel`, `parse_entry` returns `None`
// for an unknown level, and `at_least` takes a `LogLevel` threshold.
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    Debug,
    Info,
    Warn,
    Error,
}

impl FromStr for LogLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "debug" => Ok(LogLevel::Debug),
            "info" => Ok(LogLevel::Info),
            "warn" => Ok(LogLevel::Warn),
            "error" => Ok(LogLevel::Error),
            _ => Err(format!("unknown log level: {}", s)),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub level: LogLevel,
    pub message: String,
}

/// Parses "LEVEL: message".
pub fn parse_entry(line: &str) -> Option<Entry> {
    let (level, message) = line.split_once(':')?;
    let level = level.trim().parse().ok()?;
    Some(Entry { level, message: message.trim().to_string() })
}

/// Entries whose level is at least `threshold`.
pub fn at_least(entries: &[Entry], threshold: LogLevel) -> Vec<&Entry> {
    entries.iter().filter(|e| e.level >= threshold).collect()
}
