// Task: the exit fee ignores the daily maximum. Change `Garage::exit` so that
// a stay within the tariff's grace period is free; otherwise the stay is cut
// into consecutive 24-hour days (the last one possibly partial), each day
// costs the started hours in it times `cents_per_hour`, capped at
// `daily_max_cents`, and the fee is the sum over the days. It must also
// return `Err(ExitError::BeforeEntry)` (keeping the ticket open) when the
// exit time is earlier than the entry time. Use the helpers in
// `crate::tariff`.
use crate::tariff::{started_hours, Tariff};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExitError {
    UnknownTicket,
}

pub struct Garage {
    pub tariff: Tariff,
    next_ticket: u32,
    open: HashMap<u32, u64>,
}

impl Garage {
    pub fn new(tariff: Tariff) -> Garage {
        Garage { tariff, next_ticket: 1, open: HashMap::new() }
    }

    /// Issues a ticket for a car entering at `minute`.
    pub fn enter(&mut self, minute: u64) -> u32 {
        let t = self.next_ticket;
        self.next_ticket += 1;
        self.open.insert(t, minute);
        t
    }

    /// Closes the ticket and returns the fee in cents.
    pub fn exit(&mut self, ticket: u32, minute: u64) -> Result<u64, ExitError> {
        let entered = self.open.remove(&ticket).ok_or(ExitError::UnknownTicket)?;
        let stay = minute - entered;
        if stay <= self.tariff.grace_minutes {
            return Ok(0);
        }
        Ok(started_hours(stay) * self.tariff.cents_per_hour)
    }
}
