/// A meeting-room booking in minutes since midnight, covering `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Booking {
    pub start: u32,
    pub end: u32,
}

#[derive(Debug, PartialEq, Eq)]
pub enum BookError {
    Empty,
    Conflict(Booking),
}

/// The calendar of one room; bookings are kept sorted by start and never
/// overlap.
#[derive(Debug, Default)]
pub struct Room {
    bookings: Vec<Booking>,
}

impl Room {
    /// Adds `b` when its interval is not empty and overlaps no existing
    /// booking (bookings that only touch are fine). On conflict nothing
    /// changes and the error names the earliest booking that overlaps.
    pub fn book(&mut self, b: Booking) -> Result<(), BookError> {
        if b.start >= b.end {
            return Err(BookError::Empty);
        }
        let idx = self.bookings.partition_point(|x| x.start < b.start);
        if idx > 0 && self.bookings[idx - 1].end > b.start {
            Err(BookError::Conflict(self.bookings[idx - 1]))
        } else {
            /*FILL*/
        }
    }

    pub fn bookings(&self) -> &[Booking] {
        &self.bookings
    }
}
