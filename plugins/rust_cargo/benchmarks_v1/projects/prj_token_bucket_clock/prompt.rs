// Task: implement the token bucket. `TokenBucket::new(clock, capacity,
// refill_per_sec)` starts full. Tokens are added continuously at
// `refill_per_sec` per second of clock time (so 250 ms at 4/s adds one token;
// partial tokens are kept for later, not lost) but never beyond `capacity`.
// `try_acquire(n)` takes n tokens and returns true if at least n are
// available, otherwise takes nothing and returns false. `available()` returns
// the whole tokens available now.
use crate::clock::Clock;

pub struct TokenBucket<C: Clock> {
    clock: C,
    capacity: u32,
    refill_per_sec: u32,
}

impl<C: Clock> TokenBucket<C> {
    pub fn new(clock: C, capacity: u32, refill_per_sec: u32) -> TokenBucket<C> {
        TokenBucket { clock, capacity, refill_per_sec }
    }

    pub fn try_acquire(&mut self, n: u32) -> bool {
        todo!()
    }

    pub fn available(&mut self) -> u32 {
        todo!()
    }
}
