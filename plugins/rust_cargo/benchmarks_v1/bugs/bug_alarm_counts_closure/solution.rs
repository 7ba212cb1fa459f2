// Task: `alarm_counts` summarises the alarms of a building's sensors, as its
// doc comment says. The file does not compile. Fix it and return the whole
// corrected file.
use std::collections::BTreeMap;

/// Counts, per zone, the readings at or above `threshold`, returned in zone
/// order. Only the first `max_zones` distinct zones that raise an alarm are
/// tracked; alarms from any further zone are added to the second value.
pub fn alarm_counts(readings: &[(&str, u32)], threshold: u32, max_zones: usize) -> (Vec<(String, usize)>, usize) {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut overflow = 0;
    for &(zone, value) in readings {
        if value < threshold {
            continue;
        }
        if counts.len() >= max_zones && !counts.contains_key(zone) {
            overflow += 1;
            continue;
        }
        *counts.entry(zone.to_string()).or_insert(0) += 1;
    }
    (counts.into_iter().collect(), overflow)
}
