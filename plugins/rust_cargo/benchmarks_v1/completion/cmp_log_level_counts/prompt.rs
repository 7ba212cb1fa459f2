use std::collections::BTreeMap;

/// Counts log lines per level. A line looks like `"[WARN] disk almost full"`:
/// the level is the text between the leading `[` and the first `]` after it.
/// Lines that do not start with `[`, or have no `]`, are skipped. Levels are
/// counted exactly as written (case-sensitive).
pub fn count_levels(lines: &[&str]) -> BTreeMap<String, usize> {
    lines
        .iter()
        .filter_map(|line| {
