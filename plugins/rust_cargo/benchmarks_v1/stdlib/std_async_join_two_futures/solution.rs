use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Returns a future that runs `a` and `b` concurrently and completes with
/// `(output of a, output of b)` once both have completed.
///
/// On every poll of the returned future, each inner future that has not yet
/// completed is polled once, `a` before `b`. A completed inner future is
/// never polled again; its output is kept until the other one completes, and
/// the joined future is ready on the poll where the last one completes. The
/// returned type is a public struct `Join<A, B>` implementing `Future`, and
/// it is `Unpin`, so joins can be nested.
pub fn join<A, B>(a: A, b: B) -> Join<A, B>
where
    A: Future + Unpin,
    B: Future + Unpin,
{
    Join { a: Slot::Running(a), b: Slot::Running(b) }
}

/// The future returned by [`join`].
pub struct Join<A: Future, B: Future> {
    a: Slot<A>,
    b: Slot<B>,
}

enum Slot<F: Future> {
    Running(F),
    Done(F::Output),
    Taken,
}

impl<F: Future + Unpin> Slot<F> {
    /// Polls the inner future if it is still running; returns whether its
    /// output is available.
    fn poll_once(&mut self, cx: &mut Context<'_>) -> bool {
        if let Slot::Running(future) = self {
            if let Poll::Ready(output) = Pin::new(future).poll(cx) {
                *self = Slot::Done(output);
            }
        }
        matches!(self, Slot::Done(_))
    }

    fn take(&mut self) -> F::Output {
        match std::mem::replace(self, Slot::Taken) {
            Slot::Done(output) => output,
            _ => panic!("Join polled after completion"),
        }
    }
}

// No field is ever pinned: the inner futures are `Unpin` and the outputs are
// only moved, so `Join` can be `Unpin` whatever the output types are.
impl<A: Future, B: Future> Unpin for Join<A, B> {}

impl<A, B> Future for Join<A, B>
where
    A: Future + Unpin,
    B: Future + Unpin,
{
    type Output = (A::Output, B::Output);

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        let a_ready = this.a.poll_once(cx);
        let b_ready = this.b.poll_once(cx);
        if a_ready && b_ready {
            Poll::Ready((this.a.take(), this.b.take()))
        } else {
            Poll::Pending
        }
    }
}
