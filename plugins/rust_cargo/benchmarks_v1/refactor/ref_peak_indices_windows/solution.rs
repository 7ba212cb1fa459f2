// Task: rewrite `peaks` with `slice::windows(3)` instead of index loops, taking
// `signal: &[i32]` and returning `impl Iterator<Item = usize> + '_` (the same
// indices, in increasing order). `peak_count` must use the new `peaks`.

/// Indices i with signal[i-1] < signal[i] > signal[i+1].
pub fn peaks(signal: &[i32]) -> impl Iterator<Item = usize> + '_ {
    signal
        .windows(3)
        .enumerate()
        .filter(|(_, w)| w[0] < w[1] && w[1] > w[2])
        .map(|(i, _)| i + 1)
}

pub fn peak_count(signal: &[i32]) -> usize {
    peaks(signal).count()
}
