// Task: `copy_all` and `increment` are written twice, once per store. Extract
//   pub trait KeyValueStore {
//       fn get(&self, key: &str) -> Option<String>;
//       fn set(&mut self, key: &str, value: &str) -> bool;   // false if refused
//       fn remove(&mut self, key: &str) -> Option<String>;
//       fn len(&self) -> usize;
//   }
// implement it for MemoryStore and CappedStore (moving their inherent methods
// into the impls) and replace the four functions with two generic ones:
//   pub fn copy_all<S: KeyValueStore + ?Sized>(pairs: &[(&str, &str)], store: &mut S) -> usize
//   pub fn increment<S: KeyValueStore + ?Sized>(store: &mut S, key: &str) -> Option<i64>
use std::collections::BTreeMap;

#[derive(Default)]
pub struct MemoryStore {
    map: BTreeMap<String, String>,
}

impl MemoryStore {
    pub fn get(&self, key: &str) -> Option<String> {
        self.map.get(key).cloned()
    }
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        self.map.insert(key.to_string(), value.to_string());
        true
    }
    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.map.remove(key)
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
}

/// Refuses new keys once `capacity` keys are stored; existing keys can be updated.
pub struct CappedStore {
    pub capacity: usize,
    map: BTreeMap<String, String>,
}

impl CappedStore {
    pub fn new(capacity: usize) -> CappedStore {
        CappedStore { capacity, map: BTreeMap::new() }
    }
    pub fn get(&self, key: &str) -> Option<String> {
        self.map.get(key).cloned()
    }
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        if !self.map.contains_key(key) && self.map.len() >= self.capacity {
            return false;
        }
        self.map.insert(key.to_string(), value.to_string());
        true
    }
    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.map.remove(key)
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
}

/// Stores every pair; returns how many were accepted.
pub fn copy_all_memory(pairs: &[(&str, &str)], store: &mut MemoryStore) -> usize {
    pairs.iter().filter(|(k, v)| store.set(k, v)).count()
}

pub fn copy_all_capped(pairs: &[(&str, &str)], store: &mut CappedStore) -> usize {
    pairs.iter().filter(|(k, v)| store.set(k, v)).count()
}

/// Adds one to the integer under `key` (missing counts as 0) and returns the
/// new value; None if the value is not an integer or the store refuses.
pub fn increment_memory(store: &mut MemoryStore, key: &str) -> Option<i64> {
    let current: i64 = match store.get(key) {
        Some(v) => v.parse().ok()?,
        None => 0,
    };
    let next = current + 1;
    if store.set(key, &next.to_string()) { Some(next) } else { None }
}

pub fn increment_capped(store: &mut CappedStore, key: &str) -> Option<i64> {
    let current: i64 = match store.get(key) {
        Some(v) => v.parse().ok()?,
        None => 0,
    };
    let next = current + 1;
    if store.set(key, &next.to_string()) { Some(next) } else { None }
}
