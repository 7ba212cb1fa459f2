// Task: rewrite `peaks` with `slice::windows(3)` instead of index loops, taking
// `signal: &[i32]` and returning `impl Iterator<Item = usize> + '_` (the same
// indices, in increasing order). `peak_count` must use the new `peaks`.

/// Indices i with signal[i-1] < signal[i] > signal[i+1].
pub fn peaks(signal: &Vec<i32>) -> Vec<usize> {
    let mut out = Vec::new();
    if signal.len() < 3 {
        return out;
    }
    for i in 1..signal.len() - 1 {
        if signal[i - 1] < signal[i] && signal[i] > signal[i + 1] {
            out.push(i);
        }
    }
    out
}

pub fn peak_count(signal: &Vec<i32>) -> usize {
    peaks(signal).len()
}
