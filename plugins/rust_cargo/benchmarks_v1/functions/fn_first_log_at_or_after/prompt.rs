/// `timestamps` holds the times of log entries in non-decreasing order
/// (duplicates allowed). Returns the index of the first entry whose time is
/// `>= since`, or `timestamps.len()` if there is none. Runs in O(log n).
pub fn first_at_or_after(timestamps: &[u64], since: u64) -> usize {
