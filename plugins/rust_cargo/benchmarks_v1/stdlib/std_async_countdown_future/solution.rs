use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A future that completes with a value after a given number of pending
/// polls, used to exercise executors in tests.
///
/// Each of the first `polls` polls decrements the remaining count, calls
/// `wake_by_ref` on the context's waker (so that the executor polls again)
/// and returns `Poll::Pending`; the following poll returns
/// `Poll::Ready(value)`. Polling it again after that panics.
pub struct Countdown<T> {
    remaining: u32,
    value: Option<T>,
}

impl<T> Countdown<T> {
    pub fn new(polls: u32, value: T) -> Self {
        Countdown { remaining: polls, value: Some(value) }
    }

    /// The number of pending polls still to come.
    pub fn remaining(&self) -> u32 {
        self.remaining
    }
}

// `Countdown` never pins its value, so it is `Unpin` whatever `T` is.
impl<T> Unpin for Countdown<T> {}

impl<T> Future for Countdown<T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        if self.remaining == 0 {
            let value = self.value.take().expect("Countdown polled after completion");
            return Poll::Ready(value);
        }
        self.remaining -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}
