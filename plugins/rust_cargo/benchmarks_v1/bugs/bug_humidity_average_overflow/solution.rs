// Task: a weather station reports humidity readings in percent (0 to 100).
// `average_humidity` and `summary` must work for any number of readings, as
// their doc comments say. The code compiles but has a bug. Fix it and return
// the whole corrected file.

/// The mean of the readings, rounded down; None if there are none.
pub fn average_humidity(readings: &[u8]) -> Option<u8> {
    if readings.is_empty() {
        return None;
    }
    let total: u64 = readings.iter().map(|&r| u64::from(r)).sum();
    Some((total / readings.len() as u64) as u8)
}

/// (lowest, highest, mean rounded down) of the readings; None if there are none.
pub fn summary(readings: &[u8]) -> Option<(u8, u8, u8)> {
    let min = *readings.iter().min()?;
    let max = *readings.iter().max()?;
    Some((min, max, average_humidity(readings)?))
}
