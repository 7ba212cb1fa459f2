// Task: `count_levels` tallies the lines of a log by their level, as the doc
// comments describe. The code compiles but has a bug. Fix it and return the
// whole corrected file.

/// How many lines of each level a log holds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LevelCounts {
    pub error: usize,
    pub warn: usize,
    pub info: usize,
    pub debug: usize,
    pub unknown: usize,
}

/// Counts the non-empty lines of `log` by level. A line starts with its level,
/// optionally followed by a colon ("WARN disk slow", "error: timeout"). Levels
/// are matched case-insensitively; "ERR" is an alias of "ERROR", "WARNING" of
/// "WARN" and "TRACE" of "DEBUG". Any other first word counts as unknown.
pub fn count_levels(log: &str) -> LevelCounts {
    let mut counts = LevelCounts::default();
    for line in log.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        let level = first.trim_end_matches(':').to_ascii_uppercase();
        match level.as_str() {
            "ERROR" | "ERR" => counts.error += 1,
            "WARN" | "WARNING" => counts.warn += 1,
            "INFO" => counts.info += 1,
            "DEBUG" | "TRACE" => counts.debug += 1,
            _ => counts.unknown += 1,
        }
    }
    counts
}
