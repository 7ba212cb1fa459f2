/// Smooths sensor readings with a simple moving average: element `i` of the
/// result is the mean of `readings[i..i + window]`. Returns an empty `Vec`
/// when `window` is 0 or longer than `readings`.
pub fn moving_average(readings: &[f64], window: usize) -> Vec<f64> {
    if window == 0 {
        return Vec::new();
    }
    readings
