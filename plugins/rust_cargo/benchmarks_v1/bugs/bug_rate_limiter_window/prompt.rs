// Task: `RateLimiter` is a fixed-window rate limiter for an API gateway; its
// doc comments give the rules. The code compiles but has a bug. Fix it and
// return the whole corrected file.

/// Allows at most `limit` requests per window of `window_ms` milliseconds.
/// The first request opens a window starting at its timestamp. A request at a
/// time `t` with `t >= window_start + window_ms` opens a new window at `t`.
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window_ms: u64,
    window_start: Option<u64>,
    used: u32,
}

impl RateLimiter {
    pub fn new(limit: u32, window_ms: u64) -> RateLimiter {
        RateLimiter { limit, window_ms, window_start: None, used: 0 }
    }

    /// Decides whether a request at `now_ms` may pass. Timestamps never
    /// decrease from one call to the next.
    pub fn allow(&mut self, now_ms: u64) -> bool {
        let expired = match self.window_start {
            Some(start) => now_ms - start > self.window_ms,
            None => true,
        };
        if expired {
            self.window_start = Some(now_ms);
            self.used = 0;
        }
        if self.used < self.limit {
            self.used += 1;
            true
        } else {
            false
        }
    }
}
