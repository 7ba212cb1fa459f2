use super::*;

fn sample() -> AuditLog {
    let mut log = AuditLog::new();
    log.record(30, "logout alice");
    log.record(10, "login alice");
    log.record(20, "read report");
    log.record(10, "login bob");
    log.record(40, "login carol");
    log
}

#[test]
fn empty_log() {
    assert!(AuditLog::new().between(0, 100).is_empty());
}

#[test]
fn range_is_half_open() {
    assert_eq!(sample().between(10, 30), vec!["login alice", "login bob", "read report"]);
    assert_eq!(sample().between(11, 31), vec!["read report", "logout alice"]);
}

#[test]
fn whole_log_in_time_order() {
    assert_eq!(
        sample().between(0, u64::MAX),
        vec!["login alice", "login bob", "read report", "logout alice", "login carol"]
    );
}

#[test]
fn empty_and_inverted_ranges() {
    assert!(sample().between(20, 20).is_empty());
    assert!(sample().between(35, 15).is_empty());
    assert!(sample().between(41, 100).is_empty());
}
