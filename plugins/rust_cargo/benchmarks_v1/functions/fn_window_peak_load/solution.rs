/// Given per-second request counts of a server, returns the peak load of
/// every window of `window` consecutive seconds: element `i` of the result is
/// the maximum of `loads[i..i + window]`.
///
/// Returns an empty `Vec` if `window` is 0 or longer than `loads`. Runs in
/// O(n) time overall, independent of `window`.
pub fn window_peaks(loads: &[u32], window: usize) -> Vec<u32> {
    use std::collections::VecDeque;

    if window == 0 || window > loads.len() {
        return Vec::new();
    }
    // Indices whose loads are strictly decreasing from front to back.
    let mut candidates: VecDeque<usize> = VecDeque::new();
    let mut peaks = Vec::with_capacity(loads.len() - window + 1);
    for (i, &load) in loads.iter().enumerate() {
        while candidates.back().map_or(false, |&j| loads[j] <= load) {
            candidates.pop_back();
        }
        candidates.push_back(i);
        if candidates.front().map_or(false, |&j| j + window <= i) {
            candidates.pop_front();
        }
        if i + 1 >= window {
            peaks.push(loads[candidates[0]]);
        }
    }
    peaks
}
