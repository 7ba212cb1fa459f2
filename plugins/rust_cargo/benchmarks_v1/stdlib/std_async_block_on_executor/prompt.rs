//! A minimal executor for running one future to completion, built only on
//! the standard library.

use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// Runs `future` to completion on the calling thread and returns its output.
///
/// The future is polled with a waker, an `Arc` of a type implementing
/// `Wake`, that unparks the calling thread. While the future is pending the
/// thread parks until woken; spurious wake-ups only cause an extra poll. The
/// waker may be invoked from any thread, and also during a poll.
pub fn block_on<F: Future>(future: F) -> F::Output {
