/// Delays in milliseconds before each retry of a failed request. The first
/// delay is `base_ms`, each next one is the previous multiplied by `factor`,
/// and every delay is capped at `max_ms`. Exactly `retries` delays are
/// returned; the multiplication saturates instead of overflowing.
pub fn backoff_delays(base_ms: u64, factor: u64, max_ms: u64, retries: usize) -> Vec<u64> {
    std::iter::successors(Some(base_ms.min(max_ms)), |&delay| 