use std::collections::VecDeque;

/// Allows at most `limit` events in any window of `window_ms` milliseconds:
/// an accepted event at time `t` counts against later events until, but not
/// including, `t + window_ms`. Rejected events do not count.
pub struct SlidingWindow {
    limit: usize,
    window_ms: u64,
    accepted: VecDeque<u64>,
}

impl SlidingWindow {
    pub fn new(limit: usize, window_ms: u64) -> Self {
        SlidingWindow { limit, window_ms, accepted: VecDeque::new() }
    }

    /// Records an event at `now_ms` if it is allowed and returns whether it
    /// was. Times never decrease between calls.
    pub fn allow(&mut self, now_ms: u64) -> bool {
        while let Some(&oldest) = self.accepted.front() {
            if oldest + self.window_ms > now_ms {
                break;
            }
            self.accepted.pop_front();
        }
        if self.accepted.len() < self.limit {
            self.accepted.push_back(now_ms);
            true
        } else {
            false
        }
    }
}
