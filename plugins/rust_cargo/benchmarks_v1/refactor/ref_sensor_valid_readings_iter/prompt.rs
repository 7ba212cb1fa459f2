// Task: rewrite `valid_celsius` without the explicit loop and the Vec: it must
// return `impl Iterator<Item = f64> + '_` that lazily yields the same values
// in the same order. `mean_celsius` must keep working on top of it.

/// A raw sensor value of -32768 means "no reading".
pub const NO_READING: i16 = i16::MIN;

/// Readings are in tenths of a degree Celsius; only -40.0..=85.0 is valid.
pub fn valid_celsius(raw: &[i16]) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 0..raw.len() {
        let r = raw[i];
        if r == NO_READING {
            continue;
        }
        if r < -400 || r > 850 {
            continue;
        }
        out.push(r as f64 / 10.0);
    }
    out
}

/// Mean of the valid readings, or None when there is none.
pub fn mean_celsius(raw: &[i16]) -> Option<f64> {
    let values = valid_celsius(raw);
    if values.is_empty() {
        return None;
    }
    let mut sum = 0.0;
    for v in &values {
        sum += v;
    }
    Some(sum / values.len() as f64)
}
