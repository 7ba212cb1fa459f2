use super::*;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

struct CountingWaker(AtomicUsize);

impl Wake for CountingWaker {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn setup() -> (SharedMailbox, Pin<Box<BatchReader>>, Arc<CountingWaker>, Waker) {
    let mailbox: SharedMailbox = Rc::new(RefCell::new(Mailbox::default()));
    let reader = Box::pin(BatchReader::new(Rc::clone(&mailbox)));
    let counter = Arc::new(CountingWaker(AtomicUsize::new(0)));
    let waker = Waker::from(Arc::clone(&counter));
    (mailbox, reader, counter, waker)
}

#[test]
fn whole_batch_already_queued() {
    let (mailbox, mut reader, _, waker) = setup();
    for m in [Message::Header { count: 3 }, Message::Reading(4), Message::Reading(-1), Message::Reading(10), Message::Trailer { checksum: 13 }] {
        send(&mailbox, m);
    }
    let mut cx = Context::from_waker(&waker);
    assert_eq!(reader.as_mut().poll(&mut cx), Poll::Ready(Ok(vec![4, -1, 10])));
}

#[test]
fn waits_for_messages_and_is_woken() {
    let (mailbox, mut reader, counter, waker) = setup();
    let mut cx = Context::from_waker(&waker);
    assert_eq!(reader.as_mut().poll(&mut cx), Poll::Pending);
    assert!(mailbox.borrow().waker.is_some());
    send(&mailbox, Message::Header { count: 2 });
    assert_eq!(counter.0.load(Ordering::SeqCst), 1);
    send(&mailbox, Message::Reading(5));
    assert_eq!(counter.0.load(Ordering::SeqCst), 1, "the waker is used once");
    assert_eq!(reader.as_mut().poll(&mut cx), Poll::Pending);
    assert!(mailbox.borrow().queue.is_empty());
    send(&mailbox, Message::Reading(6));
    assert_eq!(counter.0.load(Ordering::SeqCst), 2);
    assert_eq!(reader.as_mut().poll(&mut cx), Poll::Pending);
    send(&mailbox, Message::Trailer { checksum: 11 });
    assert_eq!(reader.as_mut().poll(&mut cx), Poll::Ready(Ok(vec![5, 6])));
}

#[test]
fn empty_batch() {
    let (mailbox, mut reader, _, waker) = setup();
    send(&mailbox, Message::Header { count: 0 });
    send(&mailbox, Message::Trailer { checksum: 0 });
    let mut cx = Context::from_waker(&waker);
    assert_eq!(reader.as_mut().poll(&mut cx), Poll::Ready(Ok(vec![])));
}

#[test]
fn checksum_mismatch() {
    let (mailbox, mut reader, _, waker) = setup();
    for m in [Message::Header { count: 2 }, Message::Reading(1), Message::Reading(2), Message::Trailer { checksum: 4 }] {
        send(&mailbox, m);
    }
    let mut cx = Context::from_waker(&waker);
    assert_eq!(reader.as_mut().poll(&mut cx), Poll::Ready(Err(ProtocolError::ChecksumMismatch { expected: 4, actual: 3 })));
}

#[test]
fn out_of_place_messages() {
    let cases = vec![
        (vec![Message::Reading(1)], 0),
        (vec![Message::Header { count: 1 }, Message::Trailer { checksum: 0 }], 1),
        (vec![Message::Header { count: 1 }, Message::Reading(1), Message::Reading(2)], 2),
        (vec![Message::Header { count: 0 }, Message::Header { count: 0 }], 1),
    ];
    for (messages, position) in cases {
        let (mailbox, mut reader, _, waker) = setup();
        for m in messages.clone() {
            send(&mailbox, m);
        }
        let mut cx = Context::from_waker(&waker);
        assert_eq!(reader.as_mut().poll(&mut cx), Poll::Ready(Err(ProtocolError::Unexpected(position))), "{:?}", messages);
    }
}

#[test]
fn messages_after_the_batch_stay_queued() {
    let (mailbox, mut reader, _, waker) = setup();
    for m in [Message::Header { count: 1 }, Message::Reading(9), Message::Trailer { checksum: 9 }, Message::Header { count: 5 }, Message::Reading(1)] {
        send(&mailbox, m);
    }
    let mut cx = Context::from_waker(&waker);
    assert_eq!(reader.as_mut().poll(&mut cx), Poll::Ready(Ok(vec![9])));
    assert_eq!(mailbox.borrow().queue, VecDeque::from(vec![Message::Header { count: 5 }, Message::Reading(1)]));
}
