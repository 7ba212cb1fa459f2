// Task: `SessionStore` keeps the login sessions of a web application; `purge`
// drops idle sessions as its doc comment says. The file does not compile. Fix
// it and return the whole corrected file.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub id: u32,
    pub user: String,
    pub last_seen: u64,
}

#[derive(Debug, Default)]
pub struct SessionStore {
    sessions: Vec<Session>,
}

impl SessionStore {
    pub fn new() -> SessionStore {
        SessionStore::default()
    }

    pub fn add(&mut self, id: u32, user: &str, last_seen: u64) {
        self.sessions.push(Session { id, user: user.to_string(), last_seen });
    }

    pub fn ids(&self) -> Vec<u32> {
        self.sessions.iter().map(|s| s.id).collect()
    }

    /// Removes every session that has been idle for longer than `max_idle`
    /// at time `now` (`now - last_seen > max_idle`; sessions seen "in the
    /// future" are kept). Returns the removed ids in store order; the kept
    /// sessions keep their order.
    pub fn purge(&mut self, now: u64, max_idle: u64) -> Vec<u32> {
        let mut removed = Vec::new();
        for (i, s) in self.sessions.iter().enumerate() {
            if now.saturating_sub(s.last_seen) > max_idle {
                removed.push(s.id);
                self.sessions.remove(i);
            }
        }
        removed
    }
}
