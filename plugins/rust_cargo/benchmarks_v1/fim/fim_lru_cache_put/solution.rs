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
        if self.capacity == 0 {
            return None;
        }
        if let Some(slot) = self.map.get_mut(key) {
            *slot = value.to_string();
            self.touch(key);
            return None;
        }
        let evicted = if self.map.len() >= self.capacity { self.order.pop_front() } else { None };
        if let Some(old) = &evicted {
            self.map.remove(old);
        }
        self.map.insert(key.to_string(), value.to_string());
        self.order.push_back(key.to_string());
        evicted
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}
