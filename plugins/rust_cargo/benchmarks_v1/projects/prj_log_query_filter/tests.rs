use crate::query::Query;
use crate::record::{Level, LogRecord};

fn logs() -> Vec<LogRecord> {
    vec![
        LogRecord::new(10, Level::Info, "auth", "User login OK"),
        LogRecord::new(20, Level::Error, "billing", "Payment TIMEOUT"),
        LogRecord::new(30, Level::Warn, "auth", "slow login"),
        LogRecord::new(40, Level::Debug, "auth", "login cache miss"),
        LogRecord::new(50, Level::Error, "auth", "db timeout"),
    ]
}

fn ts(found: Vec<&LogRecord>) -> Vec<u64> {
    found.iter().map(|r| r.ts).collect()
}

#[test]
fn empty_query_matches_all() {
    assert_eq!(ts(Query::new().run(&logs())), vec![10, 20, 30, 40, 50]);
}

#[test]
fn conditions_combine() {
    let l = logs();
    assert_eq!(ts(Query::new().service("auth").min_level(Level::Info).run(&l)), vec![10, 30, 50]);
    assert_eq!(ts(Query::new().contains("TimeOut").run(&l)), vec![20, 50]);
    assert_eq!(ts(Query::new().service("auth").contains("login").min_level(Level::Warn).run(&l)), vec![30]);
}

#[test]
fn time_range_is_half_open() {
    assert_eq!(ts(Query::new().between(20, 40).run(&logs())), vec![20, 30]);
}

#[test]
fn later_calls_replace_earlier_ones() {
    let q = Query::new().service("billing").service("auth").min_level(Level::Error).min_level(Level::Debug);
    assert_eq!(ts(q.run(&logs())), vec![10, 30, 40, 50]);
}

#[test]
fn matches_single_record() {
    let r = LogRecord::new(5, Level::Trace, "edge", "ping");
    assert!(Query::new().matches(&r));
    assert!(!Query::new().min_level(Level::Debug).matches(&r));
    assert!(!Query::new().service("Edge").matches(&r));
}
