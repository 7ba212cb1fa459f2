/// A map of depots: `roads[i]` lists one-way roads from depot `i` as
/// `(destination, minutes)`. Roads to depots outside the map (index
/// `>= roads.len()`) are ignored.
///
/// Returns the shortest total travel time from `from` to `to`: `Some(0)` when
/// they are the same depot, `None` when `to` is unreachable or either index is
/// out of range. Must be efficient on maps with thousands of depots.
pub fn fastest_route(roads: &[Vec<(usize, u64)>], from: usize, to: usize) -> Option<u64> {
