use super::*;

#[test]
fn zero_seconds() {
    assert_eq!(format_uptime(0), "00:00:00");
}

#[test]
fn under_a_day_has_no_day_part() {
    assert_eq!(format_uptime(59), "00:00:59");
    assert_eq!(format_uptime(3_661), "01:01:01");
    assert_eq!(format_uptime(86_399), "23:59:59");
}

#[test]
fn days_are_prefixed() {
    assert_eq!(format_uptime(86_400), "1d 00:00:00");
    assert_eq!(format_uptime(3 * 86_400 + 4 * 3_600 + 5 * 60 + 6), "3d 04:05:06");
}

#[test]
fn many_days() {
    assert_eq!(format_uptime(400 * 86_400 + 59), "400d 00:00:59");
}
