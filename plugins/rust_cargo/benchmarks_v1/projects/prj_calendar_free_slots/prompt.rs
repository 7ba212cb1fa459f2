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
}
