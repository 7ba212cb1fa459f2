/// Summary of a day's temperature readings, in tenths of a degree.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub min: i32,
    pub max: i32,
    /// Arithmetic mean, rounded toward zero.
    pub mean: i32,
    /// Number of readings strictly above the threshold.
    pub above: usize,
}

/// Summarises `readings` against `threshold`; `None` when there are no readings.
pub fn summarize(readings: &[i32], threshold: i32) -> Option<Summary> {
    if readings.is_empty() {
        return None;
    }
    let total: i64 = readings.iter().map(|&r| i64::from(r)).sum();
    Some(Summary {
        min: *readings.iter().min()?,
