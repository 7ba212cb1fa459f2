// Task: `Cache` memoises an expensive lookup behind a shared reference, as the
// doc comments say. The code compiles but panics at run time. Fix it and
// return the whole corrected file.
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct Cache {
    entries: RefCell<HashMap<String, String>>,
    hits: Cell<u32>,
    misses: Cell<u32>,
}

impl Cache {
    pub fn new() -> Cache {
        Cache::default()
    }

    /// Returns the cached value of `key`; on a miss calls `compute`, stores
    /// its result and returns it.
    pub fn get_or_compute<F: FnOnce(&str) -> String>(&self, key: &str, compute: F) -> String {
        if let Some(value) = self.entries.borrow().get(key) {
            self.hits.set(self.hits.get() + 1);
            return value.clone();
        }
        self.misses.set(self.misses.get() + 1);
        let value = compute(key);
        self.entries.borrow_mut().insert(key.to_string(), value.clone());
        value
    }

    /// (hits, misses) so far.
    pub fn stats(&self) -> (u32, u32) {
        (self.hits.get(), self.misses.get())
    }

    pub fn len(&self) -> usize {
        self.entries.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.borrow().is_empty()
    }
}
