// Task: rewrite `valid_celsius` without the explicit loop and the Vec: it must
// return `impl Iterator<Item = f64> + '_` that lazily yields the same values
// in the same order. `mean_celsius` must keep working on top of it.

/// A raw sensor value of -32768 means "no reading".
pub const NO_READING: i16 = i16::MIN;

/// Readings are in tenths of a degree Celsius; only -40.0..=85.0 is valid.
pub fn valid_celsius(raw: &[i16]) -> impl Iterator<Item = f64> + '_ {
    raw.iter()
        .copied()
        .filter(|&r| r != NO_READING && (-400..=850).contains(&r))
        .map(|r| f64::from(r) / 10.0)
}

/// Mean of the valid readings, or None when there is none.
pub fn mean_celsius(raw: &[i16]) -> Option<f64> {
    let (count, sum) = valid_celsius(raw).fold((0usize, 0.0), |(n, s), v| (n + 1, s + v));
    if count == 0 {
        None
    } else {
        Some(sum / count as f64)
    }
}
