// Task: replace the stringly-typed log levels with a `LogLevel` enum
// (variants Debug, Info, Warn, Error, ordered from least to most severe) that
// implements `FromStr` (case-insensitive, `Err(String)` naming the bad input)
// and `Ord`. `Entry::level` becomes a `LogLevel`, `parse_entry` returns `None`
// for an unknown level, and `at_least` takes a `LogLevel` threshold.

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub level: String,
    pub message: String,
}

fn rank(level: &str) -> Option<u8> {
    match level.to_ascii_lowercase().as_str() {
        "debug" => Some(0),
        "info" => Some(1),
        "warn" => Some(2),
        "error" => Some(3),
        _ => None,
    }
}

/// Parses "LEVEL: message".
pub fn parse_entry(line: &str) -> Option<Entry> {
    let (level, message) = line.split_once(':')?;
    let level = level.trim();
    rank(level)?;
    Some(Entry { level: level.to_ascii_lowercase(), message: message.trim().to_string() })
}

/// Entries whose level is at least `threshold`.
pub fn at_least<'a>(entries: &'a [Entry], threshold: &str) -> Vec<&'a Entry> {
    let min = rank(threshold).unwrap_or(0);
    entries.iter().filter(|e| rank(&e.level).unwrap_or(0) >= min).collect()
}
