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
