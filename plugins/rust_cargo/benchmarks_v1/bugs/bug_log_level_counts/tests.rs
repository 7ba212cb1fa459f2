use super::*;

#[test]
fn empty_log_counts_nothing() {
    assert_eq!(count_levels(""), LevelCounts::default());
    assert_eq!(count_levels("\n   \n"), LevelCounts::default());
}

#[test]
fn aliases_count_under_their_level() {
    let log = "WARNING: cache nearly full\nWARN slow disk\nERR: io\nERROR crash\nTRACE enter\n";
    let c = count_levels(log);
    assert_eq!(c.warn, 2);
    assert_eq!(c.error, 2);
    assert_eq!(c.debug, 1);
    assert_eq!(c.unknown, 0);
}

#[test]
fn levels_are_case_insensitive() {
    let c = count_levels("warning: a\ninfo: b\nInfo c\ndebug d\n");
    assert_eq!(c, LevelCounts { error: 0, warn: 1, info: 2, debug: 1, unknown: 0 });
}

#[test]
fn unknown_levels_are_counted() {
    let c = count_levels("FATAL boom\nnotice: x\n  INFO  indented\n");
    assert_eq!(c.unknown, 2);
    assert_eq!(c.info, 1);
}
