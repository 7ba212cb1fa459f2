use super::*;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

struct NoopWaker;

impl Wake for NoopWaker {
    fn wake(self: Arc<Self>) {}
}

fn waker() -> Waker {
    Waker::from(Arc::new(NoopWaker))
}

/// Pending `left` times, then ready with `out`; records every poll in `log`.
struct Ticks {
    name: &'static str,
    left: u32,
    out: u32,
    log: Rc<RefCell<Vec<&'static str>>>,
}

impl Future for Ticks {
    type Output = u32;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        self.log.borrow_mut().push(self.name);
        if self.left == 0 {
            return Poll::Ready(self.out);
        }
        self.left -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

fn ticks(name: &'static str, left: u32, out: u32, log: &Rc<RefCell<Vec<&'static str>>>) -> Ticks {
    Ticks { name, left, out, log: Rc::clone(log) }
}

fn poll_count<F: Future>(future: &mut Pin<Box<F>>) -> (F::Output, usize) {
    let w = waker();
    let mut cx = Context::from_waker(&w);
    let mut polls = 0;
    loop {
        polls += 1;
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return (out, polls);
        }
        assert!(polls < 1_000, "join never completes");
    }
}

#[test]
fn both_ready_completes_on_first_poll() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut joined = Box::pin(join(ticks("a", 0, 1, &log), ticks("b", 0, 2, &log)));
    assert_eq!(poll_count(&mut joined), ((1, 2), 1));
    assert_eq!(*log.borrow(), vec!["a", "b"]);
}

#[test]
fn finished_future_is_not_polled_again() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut joined = Box::pin(join(ticks("a", 2, 10, &log), ticks("b", 0, 20, &log)));
    assert_eq!(poll_count(&mut joined), ((10, 20), 3));
    assert_eq!(*log.borrow(), vec!["a", "b", "a", "a"]);
}

#[test]
fn first_output_is_kept_while_second_runs() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut joined = Box::pin(join(ticks("a", 0, 7, &log), ticks("b", 3, 8, &log)));
    assert_eq!(poll_count(&mut joined), ((7, 8), 4));
    assert_eq!(*log.borrow(), vec!["a", "b", "b", "b", "b"]);
}

#[test]
fn pending_poll_is_reported() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut joined = Box::pin(join(ticks("a", 1, 1, &log), ticks("b", 1, 2, &log)));
    let w = waker();
    let mut cx = Context::from_waker(&w);
    assert_eq!(joined.as_mut().poll(&mut cx), Poll::Pending);
    assert_eq!(joined.as_mut().poll(&mut cx), Poll::Ready((1, 2)));
    assert_eq!(*log.borrow(), vec!["a", "b", "a", "b"]);
}

#[test]
fn different_output_types_and_async_blocks() {
    let mut joined = Box::pin(join(Box::pin(async { 5u8 }), Box::pin(async { String::from("five") })));
    assert_eq!(poll_count(&mut joined), ((5u8, String::from("five")), 1));
}

#[test]
fn joins_nest() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let inner = join(ticks("a", 1, 1, &log), ticks("b", 0, 2, &log));
    let mut outer = Box::pin(join(inner, ticks("c", 2, 3, &log)));
    assert_eq!(poll_count(&mut outer), (((1, 2), 3), 3));
    assert_eq!(*log.borrow(), vec!["a", "b", "c", "a", "c", "c"]);
}
