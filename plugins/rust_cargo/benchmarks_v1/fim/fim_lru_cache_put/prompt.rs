use std::collections::{HashMap, VecDeque};

/// A small least-recently-used cache of strings. `order` holds the keys from
/// least to most recently used.
pub struct LruCache {
    capacity: usize,
    map: HashMap<String, String>,
    order: VecDeque<String>,
}

impl LruCache {
    pub fn new(capacity: usize) -> Self {
        LruCache { capacity, map: HashMap::new(), order: VecDeque::new() }
    }

    fn touch(&mut self, key: &str) {
        if let Some(pos) = self.order.iter().position(|k| k == key) {
            if let Some(k) = self.order.remove(pos) {
                self.order.push_back(k);
            }
        }
    }

    /// The value for `key`, which becomes the most recently used.
    pub fn get(&mut self, key: &str) -> Option<&String> {
        self.touch(key);
        self.map.get(key)
    }

    /// Inserts or replaces `key`, making it the most recently used. When a new
    /// key does not fit, the least recently used entry is evicted first and
    /// its key returned. A cache of capacity 0 stores nothing and returns `None`.
    pub fn put(&mut self, key: &str, value: &str) -> Option<String> {
        /*FILL*/
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}
