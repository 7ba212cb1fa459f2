// Task: add `Calendar::free_slots(&self, min_len: u32) -> Vec<Interval>`:
// the free spans inside `working_hours` not covered by any booking, in
// chronological order, keeping only spans of at least `min_len` minutes.
// Bookings may overlap, touch, be unsorted or stick out of the working hours.
// Also add `Calendar::can_book(&self, slot: Interval) -> bool`: true when the
// slot lies within working hours and overlaps no booking.
use crate::interval::Interval;

pub struct Calendar {
    pub working_hours: Interval,
    bookings: Vec<Interval>,
}

impl Calendar {
    pub fn new(working_hours: Interval) -> Calendar {
        Calendar { working_hours, bookings: Vec::new() }
    }

    pub fn book(&mut self, slot: Interval) {
        self.bookings.push(slot);
    }

    pub fn free_slots(&self, min_len: u32) -> Vec<Interval> {
        let mut busy: Vec<Interval> = self.bookings.iter().filter_map(|b| b.clamp_to(&self.working_hours)).collect();
        busy.sort();
        let mut free = Vec::new();
        let mut cursor = self.working_hours.start;
        for b in busy {
            if let Some(gap) = Interval::new(cursor, b.start) {
                free.push(gap);
            }
            cursor = cursor.max(b.end);
        }
        if let Some(gap) = Interval::new(cursor, self.working_hours.end) {
            free.push(gap);
        }
        free.retain(|g| g.len() >= min_len);
        free
    }

    pub fn can_book(&self, slot: Interval) -> bool {
        slot.start >= self.working_hours.start
            && slot.end <= self.working_hours.end
            && !self.bookings.iter().any(|b| b.overlaps(&slot))
    }
}
