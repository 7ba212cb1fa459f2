// Task: implement `crate::event::Handler` for both types below.
// `Counter` counts events per kind (`Event::kind`); `count(kind)` returns
// the number seen (0 for unseen kinds).
// `AuditTrail` appends one line per event to `lines`:
//   "created <id> <name>", "deleted <id>", and for failed logins
//   "failed <id> x<attempts>" followed by " LOCK" when attempts >= `lock_after`.
use crate::event::{Event, Handler};
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct Counter {
    counts: HashMap<&'static str, usize>,
}

impl Counter {
    pub fn count(&self, kind: &str) -> usize {
        self.counts.get(kind).copied().unwrap_or(0)
    }
}

impl Handler for Counter {
    fn handle(&mut self, event: &Event) {
        *self.counts.entry(event.kind()).or_insert(0) += 1;
    }
}

#[derive(Debug)]
pub struct AuditTrail {
    pub lock_after: u32,
    pub lines: Vec<String>,
}

impl AuditTrail {
    pub fn new(lock_after: u32) -> AuditTrail {
        AuditTrail { lock_after, lines: Vec::new() }
    }
}

impl Handler for AuditTrail {
    fn handle(&mut self, event: &Event) {
        let line = match event {
            Event::UserCreated { id, name } => format!("created {} {}", id, name),
            Event::UserDeleted { id } => format!("deleted {}", id),
            Event::LoginFailed { id, attempts } => {
                let lock = if *attempts >= self.lock_after { " LOCK" } else { "" };
                format!("failed {} x{}{}", id, attempts, lock)
            }
        };
        self.lines.push(line);
    }
}
