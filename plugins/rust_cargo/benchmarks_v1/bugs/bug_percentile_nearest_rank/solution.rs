// Task: a monitoring service reports latency percentiles with `percentile`, as
// its doc comment says. The code compiles but has a bug. Fix it and return the
// whole corrected file.

/// The `p`-th percentile of `samples` by the nearest-rank method: sort the
/// samples ascending and take the one at 1-based rank ceil(p * n / 100),
/// where n is the number of samples. None for no samples or for `p` outside
/// 1..=100.
pub fn percentile(samples: &[u32], p: u32) -> Option<u32> {
    if samples.is_empty() || p == 0 || p > 100 {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let rank = (p as usize * n + 99) / 100;
    Some(sorted[rank - 1])
}
