use super::*;

#[test]
fn parses_levels_case_insensitively() {
    assert_eq!("WARN".parse::<LogLevel>(), Ok(LogLevel::Warn));
    assert_eq!("debug".parse::<LogLevel>(), Ok(LogLevel::Debug));
    assert_eq!("Error".parse::<LogLevel>(), Ok(LogLevel::Error));
}

#[test]
fn unknown_level_is_an_error_naming_it() {
    let err = "verbose".parse::<LogLevel>().unwrap_err();
    assert!(err.contains("verbose"));
    assert_eq!(parse_entry("trace: hello"), None);
}

#[test]
fn levels_are_ordered_by_severity() {
    assert!(LogLevel::Debug < LogLevel::Info);
    assert!(LogLevel::Info < LogLevel::Warn);
    assert!(LogLevel::Warn < LogLevel::Error);
}

#[test]
fn parse_entry_builds_a_typed_entry() {
    let e = parse_entry(" Info :  disk mounted ").unwrap();
    assert_eq!(e, Entry { level: LogLevel::Info, message: "disk mounted".to_string() });
}

#[test]
fn at_least_filters_by_threshold() {
    let entries: Vec<Entry> = ["debug: a", "error: b", "info: c", "warn: d"]
        .iter()
        .map(|l| parse_entry(l).unwrap())
        .collect();
    let msgs: Vec<&str> = at_least(&entries, LogLevel::Info).iter().map(|e| e.message.as_str()).collect();
    assert_eq!(msgs, vec!["b", "c", "d"]);
    assert_eq!(at_least(&entries, LogLevel::Error).len(), 1);
}
