use super::*;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

struct CountingWaker(AtomicUsize);

impl Wake for CountingWaker {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn counting_waker() -> (Arc<CountingWaker>, Waker) {
    let counter = Arc::new(CountingWaker(AtomicUsize::new(0)));
    (counter.clone(), Waker::from(counter))
}

/// Polls `future` until it is ready, returning its output and the number of polls.
fn drive<F: Future + Unpin>(mut future: F) -> (F::Output, usize) {
    let (_, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);
    let mut polls = 0;
    loop {
        polls += 1;
        if let Poll::Ready(out) = Pin::new(&mut future).poll(&mut cx) {
            return (out, polls);
        }
        assert!(polls < 1_000, "future never completes");
    }
}

#[test]
fn zero_polls_is_ready_at_once() {
    let (counter, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);
    let mut cd = Countdown::new(0, 42);
    assert_eq!(Pin::new(&mut cd).poll(&mut cx), Poll::Ready(42));
    assert_eq!(counter.0.load(Ordering::SeqCst), 0);
}

#[test]
fn pending_polls_wake_and_count_down() {
    let (counter, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);
    let mut cd = Countdown::new(3, "done");
    for left in (0..3).rev() {
        assert_eq!(Pin::new(&mut cd).poll(&mut cx), Poll::Pending);
        assert_eq!(cd.remaining(), left);
    }
    assert_eq!(counter.0.load(Ordering::SeqCst), 3);
    assert_eq!(Pin::new(&mut cd).poll(&mut cx), Poll::Ready("done"));
    assert_eq!(counter.0.load(Ordering::SeqCst), 3);
}

#[test]
fn works_inside_async_blocks() {
    let job = async { Countdown::new(2, 10).await + Countdown::new(1, 5).await };
    let (sum, polls) = drive(Box::pin(job));
    assert_eq!(sum, 15);
    assert_eq!(polls, 4);
}

#[test]
fn unpin_even_for_non_unpin_values() {
    let (value, polls) = drive(Countdown::new(1, std::marker::PhantomPinned));
    assert_eq!(value, std::marker::PhantomPinned);
    assert_eq!(polls, 2);
}

#[test]
#[should_panic]
fn polling_after_completion_panics() {
    let (_, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);
    let mut cd = Countdown::new(0, String::from("x"));
    let _ = Pin::new(&mut cd).poll(&mut cx);
    let _ = Pin::new(&mut cd).poll(&mut cx);
}
