use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A road network for delivery vans: `roads[i]` lists the one-way roads
/// leaving junction `i` as `(destination, minutes)`. Returns the shortest
/// travel time from `from` to every junction, `None` where unreachable (and
/// everywhere when `from` is not a junction).
pub fn travel_times(roads: &[Vec<(usize, u32)>], from: usize) -> Vec<Option<u64>> {
    let mut best: Vec<Option<u64>> = vec![None; roads.len()];
    let mut heap = BinaryHeap::new();
    if from < roads.len() {
        best[from] = Some(0);
        heap.push(Reverse((0u64, from)));
    }
    while let Some(Reverse((time, node))) = heap.pop() {
        if matches!(best[node], Some(b) if time > b) {
            continue;
        }
        for &(next, minutes) in &roads[node] {
            /*FILL*/
        }
    }
    best
}
