use std::collections::BTreeMap;

/// Shipping prices by parcel weight. Each tier `(min_grams, price_cents)`
/// applies to parcels weighing at least `min_grams`, up to the next tier.
#[derive(Debug, Default)]
pub struct RateTable {
    tiers: BTreeMap<u32, u64>,
}

impl RateTable {
    /// Builds the table; a later tier with the same `min_grams` replaces an
    /// earlier one.
    pub fn new(tiers: &[(u32, u64)]) -> Self {
        RateTable { tiers: tiers.iter().copied().collect() }
    }

    /// Returns the price for a parcel of `grams`: the price of the tier with
    /// the largest `min_grams <= grams`, or `None` if the parcel is lighter
    /// than every tier. Runs in O(log n).
    pub fn price_for(&self, grams: u32) -> Option<u64> {
