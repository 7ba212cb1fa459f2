/// Chooses which parcels to load onto a delivery truck. Each parcel is
/// `(weight_kg, value)`. Returns the largest total value of a set of parcels,
/// each loaded at most once, whose total weight does not exceed
/// `capacity_kg`. Runs in O(parcels × capacity) time.
pub fn best_load_value(parcels: &[(u32, u64)], capacity_kg: u32) -> u64 {
