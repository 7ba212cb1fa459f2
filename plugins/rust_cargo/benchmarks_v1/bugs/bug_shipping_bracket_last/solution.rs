// Task: a parcel service prices shipments by weight brackets. `shipping_price`
// and `quote` must behave as their doc comments say. The code compiles but has
// a bug. Fix it and return the whole corrected file.

/// Parcels weighing up to and including `max_grams` cost `price_cents`.
#[derive(Debug, Clone, Copy)]
pub struct Bracket {
    pub max_grams: u32,
    pub price_cents: u32,
}

/// `brackets` is sorted by `max_grams`, ascending. Returns the price of the
/// first bracket that holds a parcel of `grams`, or None if none does.
pub fn shipping_price(brackets: &[Bracket], grams: u32) -> Option<u32> {
    for bracket in brackets {
        if grams <= bracket.max_grams {
            return Some(bracket.price_cents);
        }
    }
    None
}

/// The total price of shipping every parcel, or None if any parcel is too heavy.
pub fn quote(brackets: &[Bracket], parcels: &[u32]) -> Option<u32> {
    parcels.iter().map(|&g| shipping_price(brackets, g)).sum()
}
