/// A booking of a meeting room, as a half-open range of minutes `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Booking {
    pub start: u32,
    pub end: u32,
}

/// Returns the periods during which the room is occupied: the union of all
/// bookings, as non-overlapping bookings sorted by start.
///
/// Bookings that overlap or touch (one ends exactly when another starts) are
/// merged into one period. Empty bookings (`start >= end`) occupy nothing and
/// are ignored. The input may be in any order.
pub fn occupied_periods(bookings: &[Booking]) -> Vec<Booking> {
    let mut sorted: Vec<Booking> = bookings.iter().copied().filter(|b| b.start < b.end).collect();
    sorted.sort_by_key(|b| b.start);
    let mut merged: Vec<Booking> = Vec::with_capacity(sorted.len());
    for booking in sorted {
        match merged.last_mut() {
            Some(last) if booking.start <= last.end => last.end = last.end.max(booking.end),
            _ => merged.push(booking),
        }
    }
    merged
}
