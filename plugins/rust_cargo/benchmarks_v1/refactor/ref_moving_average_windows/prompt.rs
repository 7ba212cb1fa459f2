// Task: replace the index loops in `moving_average` with `slice::windows`.
// It must take `samples: &[f64]` (so sub-slices and arrays work) and return
// `impl Iterator<Item = f64> + '_` yielding the same values; a window size of
// 0 must yield nothing instead of panicking.

/// Mean of every run of `n` consecutive samples, in order.
pub fn moving_average(samples: &Vec<f64>, n: usize) -> Vec<f64> {
    let mut out = Vec::new();
    if samples.len() < n {
        return out;
    }
    let mut i = 0;
    while i + n <= samples.len() {
        let mut sum = 0.0;
        let mut j = i;
        while j < i + n {
            sum += samples[j];
            j += 1;
        }
        out.push(sum / n as f64);
        i += 1;
    }
    out
}
