use crate::bus::Bus;
use crate::event::{Event, Handler};
use crate::handlers::{AuditTrail, Counter};

fn events() -> Vec<Event> {
    vec![
        Event::UserCreated { id: 1, name: "ana".to_string() },
        Event::LoginFailed { id: 1, attempts: 2 },
        Event::LoginFailed { id: 1, attempts: 3 },
        Event::UserDeleted { id: 1 },
    ]
}

#[test]
fn counter_counts_per_kind() {
    let mut c = Counter::default();
    for e in events() {
        c.handle(&e);
    }
    assert_eq!(c.count("login_failed"), 2);
    assert_eq!(c.count("user_created"), 1);
    assert_eq!(c.count("nothing"), 0);
}

#[test]
fn audit_trail_lines() {
    let mut a = AuditTrail::new(3);
    for e in events() {
        a.handle(&e);
    }
    assert_eq!(a.lines, vec!["created 1 ana", "failed 1 x2", "failed 1 x3 LOCK", "deleted 1"]);
}

#[test]
fn bus_delivers_to_every_handler() {
    let mut c = Counter::default();
    let mut a = AuditTrail::new(1);
    {
        let mut bus = Bus::new();
        bus.subscribe(&mut c);
        bus.subscribe(&mut a);
        bus.publish(&Event::LoginFailed { id: 9, attempts: 1 });
        bus.publish(&Event::UserDeleted { id: 9 });
    }
    assert_eq!(c.count("login_failed"), 1);
    assert_eq!(c.count("user_deleted"), 1);
    assert_eq!(a.lines, vec!["failed 9 x1 LOCK", "deleted 9"]);
}

#[test]
fn fresh_handlers_are_empty() {
    assert_eq!(Counter::default().count("user_created"), 0);
    assert!(AuditTrail::new(5).lines.is_empty());
}
