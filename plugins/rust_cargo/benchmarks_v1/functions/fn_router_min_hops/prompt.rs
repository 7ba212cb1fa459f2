/// A network of routers: `links[i]` lists the routers directly reachable from
/// router `i` (links are one-way). Links to routers outside the network
/// (index `>= links.len()`) are ignored.
///
/// Returns the minimum number of hops needed to go from `from` to `to`:
/// `Some(0)` when they are the same router, `None` when `to` cannot be
/// reached or when `from` or `to` is out of range.
pub fn min_hops(links: &[Vec<usize>], from: usize, to: usize) -> Option<usize> {
