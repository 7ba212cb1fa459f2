/// Given per-second request counts of a server, returns the peak load of
/// every window of `window` consecutive seconds: element `i` of the result is
/// the maximum of `loads[i..i + window]`.
///
/// Returns an empty `Vec` if `window` is 0 or longer than `loads`. Runs in
/// O(n) time overall, independent of `window`.
pub fn window_peaks(loads: &[u32], window: usize) -> Vec<u32> {
