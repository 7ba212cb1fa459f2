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
}
