// Task: a time-series store indexes sorted timestamps with
// `first_at_or_after` and `count_between`, as their doc comments say. The code
// compiles but has a bug. Fix it and return the whole corrected file.

/// `timestamps` is sorted ascending. Returns the index of the first timestamp
/// that is >= `t`, or `timestamps.len()` if there is none.
pub fn first_at_or_after(timestamps: &[u64], t: u64) -> usize {
    let mut lo = 0;
    let mut hi = timestamps.len() - 1;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if timestamps[mid] < t {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// How many timestamps lie in [from, to); zero if `to <= from`.
pub fn count_between(timestamps: &[u64], from: u64, to: u64) -> usize {
    if to <= from {
        return 0;
    }
    first_at_or_after(timestamps, to) - first_at_or_after(timestamps, from)
}
