use super::*;
use std::collections::BTreeMap;

fn map(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

#[test]
fn no_lines_no_counts() {
    assert!(count_levels(&[]).is_empty());
}

#[test]
fn counts_each_level() {
    let lines = ["[INFO] started", "[WARN] disk 91%", "[INFO] listening on 8080", "[ERROR] crashed"];
    assert_eq!(count_levels(&lines), map(&[("ERROR", 1), ("INFO", 2), ("WARN", 1)]));
}

#[test]
fn malformed_lines_are_skipped() {
    let lines = ["INFO no bracket", " [INFO] leading space", "[DEBUG unterminated", "", "[DEBUG] ok"];
    assert_eq!(count_levels(&lines), map(&[("DEBUG", 1)]));
}

#[test]
fn level_ends_at_first_bracket_and_is_case_sensitive() {
    let lines = ["[warn] a ] b", "[WARN]x", "[warn]"];
    assert_eq!(count_levels(&lines), map(&[("WARN", 1), ("warn", 2)]));
}
