/// A token-bucket rate limiter driven by an explicit clock in milliseconds.
///
/// Refilling is lazy: whenever the bucket is used at `now_ms`, it first gains
/// one token for every whole `refill_every_ms` elapsed since `last_refill_ms`,
/// never holding more than `capacity`. `last_refill_ms` advances by the time
/// those tokens took, so a partial interval still counts toward the next token.
#[derive(Debug)]
pub struct TokenBucket {
    capacity: u32,
    tokens: u32,
    refill_every_ms: u64,
    last_refill_ms: u64,
}

impl TokenBucket {
    /// A full bucket at time `now_ms`. `refill_every_ms` must not be zero.
    pub fn new(capacity: u32, refill_every_ms: u64, now_ms: u64) -> Self {
        TokenBucket { capacity, tokens: capacity, refill_every_ms, last_refill_ms: now_ms }
    }

    /// Tokens available at `now_ms`.
    pub fn available(&mut self, now_ms: u64) -> u32 {
        self.refill(now_ms);
        self.tokens
    }

    /// Takes `n` tokens at `now_ms` when that many are available and returns
    /// whether it did; otherwise takes nothing.
    pub fn try_take(&mut self, n: u32, now_ms: u64) -> bool {
        self.refill(now_ms);
        if self.tokens >= n {
            self.tokens -= n;
            true
        } else {
            false
        }
    }

    fn refill(&mut self, now_ms: u64) {
        let elapsed = now_ms.saturating_sub(self.last_refill_ms);
        let earned = elapsed / self.refill_every_ms;
        if earned == 0 {
            return;
        }
        let room = u64::from(self.capacity - self.tokens);
        if earned >= room {
            self.tokens = self.capacity;
            self.last_refill_ms = now_ms;
        } else {
            self.tokens += earned as u32;
            self.last_refill_ms += earned * self.refill_every_ms;
        }
    }
}
