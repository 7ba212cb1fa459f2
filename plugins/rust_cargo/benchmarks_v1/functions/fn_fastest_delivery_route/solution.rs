/// A map of depots: `roads[i]` lists one-way roads from depot `i` as
/// `(destination, minutes)`. Roads to depots outside the map (index
/// `>= roads.len()`) are ignored.
///
/// Returns the shortest total travel time from `from` to `to`: `Some(0)` when
/// they are the same depot, `None` when `to` is unreachable or either index is
/// out of range. Must be efficient on maps with thousands of depots.
pub fn fastest_route(roads: &[Vec<(usize, u64)>], from: usize, to: usize) -> Option<u64> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let n = roads.len();
    if from >= n || to >= n {
        return None;
    }
    let mut best: Vec<Option<u64>> = vec![None; n];
    best[from] = Some(0);
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0u64, from)));
    while let Some(Reverse((time, depot))) = heap.pop() {
        if depot == to {
            return Some(time);
        }
        if best[depot].map_or(false, |known| time > known) {
            continue;
        }
        for &(next, minutes) in &roads[depot] {
            if next >= n {
                continue;
            }
            let arrival = time + minutes;
            if best[next].map_or(true, |known| arrival < known) {
                best[next] = Some(arrival);
                heap.push(Reverse((arrival, next)));
            }
        }
    }
    None
}
