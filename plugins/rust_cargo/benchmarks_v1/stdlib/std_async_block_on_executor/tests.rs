use super::*;
use std::future::Future;
use std::pin::Pin;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::thread;

/// Pending `left` times, waking itself each time, then ready with `polls`.
struct SelfWaking {
    left: u32,
    polls: u32,
}

impl Future for SelfWaking {
    type Output = u32;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        self.polls += 1;
        if self.left == 0 {
            return Poll::Ready(self.polls);
        }
        self.left -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[derive(Default)]
struct Slot {
    value: Option<u64>,
    waker: Option<Waker>,
}

/// Ready once another thread has filled the slot.
struct FromOtherThread {
    slot: Arc<Mutex<Slot>>,
    registered: Option<mpsc::Sender<()>>,
}

impl Future for FromOtherThread {
    type Output = u64;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u64> {
        let mut slot = self.slot.lock().unwrap();
        if let Some(v) = slot.value {
            return Poll::Ready(v);
        }
        slot.waker = Some(cx.waker().clone());
        drop(slot);
        if let Some(tx) = self.registered.take() {
            tx.send(()).unwrap();
        }
        Poll::Pending
    }
}

#[test]
fn ready_future() {
    assert_eq!(block_on(async { 6 * 7 }), 42);
    assert_eq!(block_on(async { String::from("done") }), "done");
}

#[test]
fn self_waking_future_is_polled_until_ready() {
    assert_eq!(block_on(SelfWaking { left: 5, polls: 0 }), 6);
}

#[test]
fn async_block_awaiting_several_futures() {
    let total = block_on(async {
        let a = SelfWaking { left: 2, polls: 0 }.await;
        let b = SelfWaking { left: 0, polls: 0 }.await;
        a * 10 + b
    });
    assert_eq!(total, 31);
}

#[test]
fn woken_from_another_thread() {
    let slot = Arc::new(Mutex::new(Slot::default()));
    let (tx, rx) = mpsc::channel();
    let producer = {
        let slot = Arc::clone(&slot);
        thread::spawn(move || {
            rx.recv().unwrap();
            let waker = {
                let mut s = slot.lock().unwrap();
                s.value = Some(99);
                s.waker.take()
            };
            if let Some(w) = waker {
                w.wake();
            }
        })
    };
    let got = block_on(FromOtherThread { slot, registered: Some(tx) });
    producer.join().unwrap();
    assert_eq!(got, 99);
}

#[test]
fn can_run_many_times_on_one_thread() {
    for i in 0..100u32 {
        assert_eq!(block_on(SelfWaking { left: i % 3, polls: 0 }), i % 3 + 1);
    }
}
