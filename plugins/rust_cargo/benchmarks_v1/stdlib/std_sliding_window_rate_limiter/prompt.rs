use std::collections::VecDeque;

/// A sliding-window rate limiter for one API key: at most `limit` requests are
/// accepted in any window of `window_ms` milliseconds. Time is passed in
/// explicitly (milliseconds, non-decreasing from call to call), which keeps
/// the limiter deterministic.
pub struct RateLimiter {
    limit: usize,
    window_ms: u64,
    accepted: VecDeque<u64>,
}

impl RateLimiter {
    pub fn new(limit: usize, window_ms: u64) -> Self {
        RateLimiter { limit, window_ms, accepted: VecDeque::new() }
    }

    /// Decides whether a request arriving at `now_ms` is accepted.
    ///
    /// An accepted request made at time `t` counts against the limit while
    /// `t + window_ms > now_ms`; rejected requests never count. If fewer than
    /// `limit` accepted requests count at `now_ms`, the request is accepted,
    /// recorded, and `true` is returned; otherwise `false`.
    pub fn try_acquire(&mut self, now_ms: u64) -> bool {
