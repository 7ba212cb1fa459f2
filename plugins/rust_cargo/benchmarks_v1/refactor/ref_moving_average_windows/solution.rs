// Task: replace the index loops in `moving_average` with `slice::windows`.
// It must take `samples: &[f64]` (so sub-slices and arrays work) and return
// `impl Iterator<Item = f64> + '_` yielding the same values; a window size of
// 0 must yield nothing instead of panicking.

/// Mean of every run of `n` consecutive samples, in order.
pub fn moving_average(samples: &[f64], n: usize) -> impl Iterator<Item = f64> + '_ {
    // `windows` panics on 0, so an empty slice stands in for that case.
    let source = if n == 0 { &samples[..0] } else { samples };
    source
        .windows(n.max(1))
        .map(move |w| w.iter().sum::<f64>() / n as f64)
}
