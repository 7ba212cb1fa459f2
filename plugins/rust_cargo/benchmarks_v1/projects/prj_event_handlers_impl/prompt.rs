// Task: implement `crate::event::Handler` for both types below.
// `Counter` counts events per kind (`Event::kind`); `count(kind)` returns
// the number seen (0 for unseen kinds).
// `AuditTrail` appends one line per event to `lines`:
//   "created <id> <name>", "deleted <id>", and for failed logins
//   "failed <id> x<attempts>" followed by " LOCK" when attempts >= `lock_after`.

#[derive(Debug, Default)]
pub struct Counter {}

impl Counter {
    pub fn count(&self, kind: &str) -> usize {
        0
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
