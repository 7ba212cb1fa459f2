// Task: replace the index loop with `slice::windows(2)`: `trip_distances`
// must take `readings: &[u32]` and return `impl Iterator<Item = u32> + '_`
// (same values, same order), and `longest_trip` (also taking `&[u32]`) must
// be built on it.

/// Odometer readings in km, never decreasing. Each trip is the distance
/// between two consecutive readings.
pub fn trip_distances(readings: &Vec<u32>) -> Vec<u32> {
    let mut trips = Vec::new();
    let mut i = 1;
    while i < readings.len() {
        trips.push(readings[i] - readings[i - 1]);
        i += 1;
    }
    trips
}

/// The longest trip, or None with fewer than two readings.
pub fn longest_trip(readings: &Vec<u32>) -> Option<u32> {
    let trips = trip_distances(readings);
    let mut best = None;
    for t in trips {
        match best {
            Some(b) if b >= t => {}
            _ => best = Some(t),
        }
    }
    best
}
