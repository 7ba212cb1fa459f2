// Task: add `Store::restock`, which brings every item whose quantity is below
// its reorder level back to at least that level by adding whole reorder
// batches, and returns (sku, units added) for each restocked item in SKU order.
use crate::item::Item;
use std::collections::BTreeMap;

/// Items by SKU.
#[derive(Debug, Default)]
pub struct Store {
    items: BTreeMap<String, Item>,
}

impl Store {
    pub fn new() -> Store {
        Store::default()
    }

    pub fn add(&mut self, item: Item) {
        self.items.insert(item.sku.clone(), item);
    }

    pub fn quantity(&self, sku: &str) -> Option<u32> {
        self.items.get(sku).map(|item| item.quantity)
    }

    /// Restocks every item below its reorder level; returns what was added.
    pub fn restock(&mut self) -> Vec<(String, u32)> {
        let mut added = Vec::new();
        for item in self.items.values_mut() {
            if item.quantity >= item.reorder_level || item.reorder_batch == 0 {
                continue;
            }
            let missing = item.reorder_level - item.quantity;
            let batches = (missing + item.reorder_batch - 1) / item.reorder_batch;
            let units = batches * item.reorder_batch;
            item.quantity += units;
            added.push((item.sku.clone(), units));
        }
        added
    }
}
