// Task: `moving_average` computes the rolling mean of a series of sensor
// samples as its doc comment says. It compiles but has a bug. Fix it and
// return the whole corrected file.

/// Returns the mean of every window of `width` consecutive samples, in order:
/// `samples.len() - width + 1` values. A width of zero, or one larger than the
/// number of samples, yields an empty vector.
pub fn moving_average(samples: &[f64], width: usize) -> Vec<f64> {
    if width == 0 || width > samples.len() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(samples.len() - width + 1);
    let mut sum: f64 = samples[..width].iter().sum();
    out.push(sum / width as f64);
    for i in width..samples.len() - 1 {
        sum += samples[i] - samples[i - width];
        out.push(sum / width as f64);
    }
    out
}
