/// An incident in the on-call queue.
#[derive(Debug, Clone, PartialEq)]
pub struct Incident {
    pub id: u32,
    /// 1 is the most severe.
    pub severity: u8,
    /// Seconds since the epoch.
    pub opened_at: u64,
    pub acknowledged: bool,
}

/// Orders the on-call queue: unacknowledged incidents first, then the most
/// severe first, then the oldest first, and finally by id.
pub fn triage(incidents: &mut [Incident]) {
    incidents.sort_by(|a, b| {
        a.acknowledged
            .cmp(&b.acknowledged)
            .then(a.severity.cmp(&b.severity))
            .then(a.opened_at.cmp(&b.opened_at))
            .then(a.id.cmp(&b.id))
    });
}
