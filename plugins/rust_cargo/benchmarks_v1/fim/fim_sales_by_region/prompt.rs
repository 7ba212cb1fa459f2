use std::collections::BTreeMap;

/// An order from the shop's export.
pub struct Order {
    pub region: String,
    pub amount_cents: u64,
    pub refunded: bool,
}

/// Per-region totals as `(number of orders, revenue in cents)`. Region names
/// are trimmed and compared case-insensitively; they are reported in upper
/// case. A refunded order counts as an order but adds no revenue.
pub fn totals_by_region(orders: &[Order]) -> BTreeMap<String, (usize, u64)> {
    let mut totals = BTreeMap::new();
    for order in orders {
        /*FILL*/
    }
    totals
}
