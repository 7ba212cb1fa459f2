// Task: extract a trait `RateLimiter` with one method
// `fn allow(&mut self, now_ms: u64) -> bool`, implement it for FixedWindow and
// SlidingLog (moving their inherent `allow` methods into the impls), and
// replace the two `count_allowed_*` functions with a single
// `pub fn count_allowed(limiter: &mut dyn RateLimiter, times: &[u64]) -> usize`.
use std::collections::VecDeque;

/// At most `limit` requests per window [k*window, (k+1)*window).
pub struct FixedWindow {
    pub limit: u32,
    pub window_ms: u64,
    current: u64,
    used: u32,
}

impl FixedWindow {
    pub fn new(limit: u32, window_ms: u64) -> FixedWindow {
        FixedWindow { limit, window_ms, current: 0, used: 0 }
    }

    pub fn allow(&mut self, now_ms: u64) -> bool {
        let w = now_ms / self.window_ms;
        if w != self.current {
            self.current = w;
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

/// At most `limit` accepted requests in any span of `window_ms` milliseconds.
pub struct SlidingLog {
    pub limit: usize,
    pub window_ms: u64,
    log: VecDeque<u64>,
}

impl SlidingLog {
    pub fn new(limit: usize, window_ms: u64) -> SlidingLog {
        SlidingLog { limit, window_ms, log: VecDeque::new() }
    }

    pub fn allow(&mut self, now_ms: u64) -> bool {
        while let Some(&t) = self.log.front() {
            if now_ms - t >= self.window_ms {
                self.log.pop_front();
            } else {
                break;
            }
        }
        if self.log.len() < self.limit {
            self.log.push_back(now_ms);
            true
        } else {
            false
        }
    }
}

pub fn count_allowed_fixed(limiter: &mut FixedWindow, times: &[u64]) -> usize {
    let mut n = 0;
    for &t in times {
        if limiter.allow(t) {
            n += 1;
        }
    }
    n
}

pub fn count_allowed_sliding(limiter: &mut SlidingLog, times: &[u64]) -> usize {
    let mut n = 0;
    for &t in times {
        if limiter.allow(t) {
            n += 1;
        }
    }
    n
}
