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
