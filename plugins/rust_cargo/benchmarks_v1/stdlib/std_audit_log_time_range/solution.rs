use std::collections::BTreeMap;

/// An audit log keyed by timestamp in seconds; several events may share a
/// timestamp.
#[derive(Debug, Default)]
pub struct AuditLog {
    events: BTreeMap<u64, Vec<String>>,
}

impl AuditLog {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `event` at time `at`, after any events already recorded at
    /// that time.
    pub fn record(&mut self, at: u64, event: &str) {
        self.events.entry(at).or_default().push(event.to_string());
    }

    /// Returns the events recorded at times `t` with `from <= t < until`,
    /// ordered by time and, for equal times, in recording order. Returns an
    /// empty `Vec` when `from >= until`.
    pub fn between(&self, from: u64, until: u64) -> Vec<&str> {
        if from >= until {
            return Vec::new();
        }
        self.events
            .range(from..until)
            .flat_map(|(_, events)| events.iter().map(String::as_str))
            .collect()
    }
}
