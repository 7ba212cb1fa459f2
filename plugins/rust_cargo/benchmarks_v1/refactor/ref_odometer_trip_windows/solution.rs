// Task: replace the index loop with `slice::windows(2)`: `trip_distances`
// must take `readings: &[u32]` and return `impl Iterator<Item = u32> + '_`
// (same values, same order), and `longest_trip` (also taking `&[u32]`) must
// be built on it.

/// Odometer readings in km, never decreasing. Each trip is the distance
/// between two consecutive readings.
pub fn trip_distances(readings: &[u32]) -> impl Iterator<Item = u32> + '_ {
    readings.windows(2).map(|w| w[1] - w[0])
}

/// The longest trip, or None with fewer than two readings.
pub fn longest_trip(readings: &[u32]) -> Option<u32> {
    trip_distances(readings).max()
}
