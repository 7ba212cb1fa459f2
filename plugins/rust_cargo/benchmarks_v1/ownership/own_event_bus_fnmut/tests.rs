use super::*;
use std::cell::RefCell;
use std::rc::Rc;

#[test]
fn handlers_run_in_order_and_keep_state() {
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut bus = EventBus::new();
    let l1 = Rc::clone(&log);
    let mut seen = 0;
    bus.subscribe("order", move |p| {
        seen += 1;
        l1.borrow_mut().push(format!("audit#{} {}", seen, p));
    });
    let l2 = Rc::clone(&log);
    bus.subscribe("order", move |p| l2.borrow_mut().push(format!("mail {}", p)));
    assert_eq!(bus.publish("order", "A1"), 2);
    assert_eq!(bus.publish("order", "B2"), 2);
    assert_eq!(*log.borrow(), vec!["audit#1 A1", "mail A1", "audit#2 B2", "mail B2"]);
}

#[test]
fn only_the_topic_handlers_run() {
    let hits = Rc::new(RefCell::new(0));
    let mut bus = EventBus::new();
    let h = Rc::clone(&hits);
    bus.subscribe("login", move |_| *h.borrow_mut() += 1);
    assert_eq!(bus.publish("logout", "u1"), 0);
    assert_eq!(bus.publish("login", "u1"), 1);
    assert_eq!(*hits.borrow(), 1);
}

#[test]
fn no_handlers() {
    let mut bus = EventBus::new();
    assert_eq!(bus.publish("anything", ""), 0);
}
