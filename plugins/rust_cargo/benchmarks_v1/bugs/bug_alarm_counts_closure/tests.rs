use super::*;

fn owned(v: &[(&str, usize)]) -> Vec<(String, usize)> {
    v.iter().map(|(z, n)| (z.to_string(), *n)).collect()
}

#[test]
fn counts_alarms_per_zone() {
    let readings = [("lab", 80), ("hall", 20), ("lab", 95), ("attic", 70), ("hall", 71)];
    assert_eq!(alarm_counts(&readings, 70, 10), (owned(&[("attic", 1), ("hall", 1), ("lab", 2)]), 0));
}

#[test]
fn further_zones_overflow() {
    let readings = [("b", 9), ("a", 9), ("c", 9), ("b", 9), ("d", 1), ("c", 9)];
    assert_eq!(alarm_counts(&readings, 5, 2), (owned(&[("a", 1), ("b", 2)]), 2));
}

#[test]
fn zones_below_threshold_do_not_take_a_slot() {
    let readings = [("x", 1), ("y", 50)];
    assert_eq!(alarm_counts(&readings, 10, 1), (owned(&[("y", 1)]), 0));
}

#[test]
fn no_alarms() {
    assert_eq!(alarm_counts(&[], 1, 3), (Vec::new(), 0));
    assert_eq!(alarm_counts(&[("a", 3)], 4, 3), (Vec::new(), 0));
    assert_eq!(alarm_counts(&[("a", 3)], 1, 0), (Vec::new(), 1));
}
