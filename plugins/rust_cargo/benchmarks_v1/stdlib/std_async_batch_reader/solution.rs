//! A batch reader for a sensor gateway, written as a hand-made state
//! machine future. Messages arrive in a single-threaded shared mailbox.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// Starts a batch of `count` readings.
    Header { count: usize },
    Reading(i64),
    /// Ends a batch; `checksum` must equal the sum of its readings.
    Trailer { checksum: i64 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProtocolError {
    /// A message that is not allowed where it appears; holds its 0-based
    /// position among the messages this reader consumed.
    Unexpected(usize),
    ChecksumMismatch { expected: i64, actual: i64 },
}

/// The mailbox shared by the producer and the reader.
#[derive(Debug, Default)]
pub struct Mailbox {
    pub queue: VecDeque<Message>,
    /// The waker of the reader waiting for a message, if any.
    pub waker: Option<Waker>,
}

pub type SharedMailbox = Rc<RefCell<Mailbox>>;

/// Queues `message` and wakes the waiting reader, if any.
pub fn send(mailbox: &SharedMailbox, message: Message) {
    let waker = {
        let mut mailbox = mailbox.borrow_mut();
        mailbox.queue.push_back(message);
        mailbox.waker.take()
    };
    if let Some(waker) = waker {
        waker.wake();
    }
}

enum State {
    AwaitingHeader,
    Reading { remaining: usize, values: Vec<i64> },
    AwaitingTrailer { values: Vec<i64> },
    Finished,
}

/// A future that reads exactly one batch from the mailbox: a `Header`, then
/// `count` `Reading`s, then a `Trailer`. It completes with the readings, or
/// with `ChecksumMismatch { expected: checksum, actual: sum }` when the
/// trailer's checksum differs from their sum, or with `Unexpected(position)`
/// as soon as a message arrives out of place (which is consumed too).
///
/// Each poll consumes as many queued messages as it can. When the queue is
/// empty it stores a clone of the context's waker in the mailbox and returns
/// `Pending`. It never consumes messages after the one that completes it.
/// Polling it after completion panics.
pub struct BatchReader {
    mailbox: SharedMailbox,
    state: State,
    consumed: usize,
}

impl BatchReader {
    pub fn new(mailbox: SharedMailbox) -> Self {
        BatchReader { mailbox, state: State::AwaitingHeader, consumed: 0 }
    }
}

impl Future for BatchReader {
    type Output = Result<Vec<i64>, ProtocolError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        if let State::Finished = this.state {
            panic!("BatchReader polled after completion");
        }
        loop {
            let next = this.mailbox.borrow_mut().queue.pop_front();
            let message = match next {
                Some(message) => message,
                None => {
                    this.mailbox.borrow_mut().waker = Some(cx.waker().clone());
                    return Poll::Pending;
                }
            };
            let position = this.consumed;
            this.consumed += 1;
            let state = std::mem::replace(&mut this.state, State::Finished);
            this.state = match (state, message) {
                (State::AwaitingHeader, Message::Header { count: 0 }) => State::AwaitingTrailer { values: Vec::new() },
                (State::AwaitingHeader, Message::Header { count }) => {
                    State::Reading { remaining: count, values: Vec::with_capacity(count) }
                }
                (State::Reading { remaining, mut values }, Message::Reading(value)) => {
                    values.push(value);
                    if remaining == 1 {
                        State::AwaitingTrailer { values }
                    } else {
                        State::Reading { remaining: remaining - 1, values }
                    }
                }
                (State::AwaitingTrailer { values }, Message::Trailer { checksum }) => {
                    let actual: i64 = values.iter().sum();
                    return Poll::Ready(if actual == checksum {
                        Ok(values)
                    } else {
                        Err(ProtocolError::ChecksumMismatch { expected: checksum, actual })
                    });
                }
                _ => return Poll::Ready(Err(ProtocolError::Unexpected(position))),
            };
        }
    }
}
