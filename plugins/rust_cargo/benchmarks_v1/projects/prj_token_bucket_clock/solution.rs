// Task: implement the token bucket. `TokenBucket::new(clock, capacity,
// refill_per_sec)` starts full. Tokens are added continuously at
// `refill_per_sec` per second of clock time (so 250 ms at 4/s adds one token;
// partial tokens are kept for later, not lost) but never beyond `capacity`.
// `try_acquire(n)` takes n tokens and returns true if at least n are
// available, otherwise takes nothing and returns false. `available()` returns
// the whole tokens available now.
use crate::clock::Clock;

/// Tokens are tracked in thousandths so that partial refills are not lost.
const SCALE: u64 = 1000;

pub struct TokenBucket<C: Clock> {
    clock: C,
    capacity: u32,
    refill_per_sec: u32,
    milli_tokens: u64,
    last_ms: u64,
}

impl<C: Clock> TokenBucket<C> {
    pub fn new(clock: C, capacity: u32, refill_per_sec: u32) -> TokenBucket<C> {
        let last_ms = clock.now_ms();
        TokenBucket { clock, capacity, refill_per_sec, milli_tokens: u64::from(capacity) * SCALE, last_ms }
    }

    fn refill(&mut self) {
        let now = self.clock.now_ms();
        let elapsed = now.saturating_sub(self.last_ms);
        self.last_ms = now;
        // refill_per_sec tokens per 1000 ms = refill_per_sec milli-tokens per ms
        let added = elapsed.saturating_mul(u64::from(self.refill_per_sec));
        let max = u64::from(self.capacity) * SCALE;
        self.milli_tokens = self.milli_tokens.saturating_add(added).min(max);
    }

    pub fn try_acquire(&mut self, n: u32) -> bool {
        self.refill();
        let needed = u64::from(n) * SCALE;
        if self.milli_tokens >= needed {
            self.milli_tokens -= needed;
            true
        } else {
            false
        }
    }

    pub fn available(&mut self) -> u32 {
        self.refill();
        (self.milli_tokens / SCALE) as u32
    }
}
