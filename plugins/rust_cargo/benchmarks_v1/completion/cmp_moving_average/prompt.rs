/// Simple moving averages of sensor samples: one average per position of a
/// window of `width` consecutive samples, in order. A width of zero, or one
/// larger than the number of samples, gives an empty result.
pub fn moving_average(samples: &[f64], width: usize) -> Vec<f64> {
    if width == 0 {
        return Vec::new();
    }
    samples
        .windows(width)
