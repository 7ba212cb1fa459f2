use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Merges several activity feeds, each already sorted by timestamp, into one
/// timeline sorted by timestamp.
///
/// Entries with equal timestamps keep the order of their feeds (an entry of
/// `feeds[0]` comes before one of `feeds[1]`) and, within one feed, their
/// original order. Runs in O(n log k) for n entries in k feeds, using a
/// min-heap that holds the next entry of each feed.
pub fn merge_feeds(feeds: Vec<Vec<(u64, String)>>) -> Vec<(u64, String)> {
    let mut sources: Vec<std::vec::IntoIter<(u64, String)>> = feeds.into_iter().map(Vec::into_iter).collect();
    let mut heap = BinaryHeap::new();
    for (feed, source) in sources.iter_mut().enumerate() {
        if let Some((time, text)) = source.next() {
            heap.push(Reverse((time, feed, text)));
        }
    }
    let mut timeline = Vec::new();
    while let Some(Reverse((time, feed, text))) = heap.pop() {
        timeline.push((time, text));
        if let Some((next_time, next_text)) = sources[feed].next() {
            heap.push(Reverse((next_time, feed, next_text)));
        }
    }
    timeline
}
