// Task: add `Cart::total_with(&self, offers: &[&dyn Discount]) -> (u64, Option<String>)`.
// It computes every offer's savings on the cart's lines (as `LineView`s from
// `crate::discount`), applies only the single offer that saves the most (the
// first one on ties; none if no offer saves anything), caps the savings at
// the subtotal, and returns the total to pay together with the applied
// offer's name.
use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct Cart {
    /// sku -> (quantity, unit price in cents)
    lines: BTreeMap<String, (u32, u64)>,
}

impl Cart {
    pub fn new() -> Cart {
        Cart::default()
    }

    /// Adds units; a repeated SKU accumulates quantity and keeps the last price.
    pub fn add(&mut self, sku: &str, quantity: u32, unit_cents: u64) {
        let entry = self.lines.entry(sku.to_string()).or_insert((0, unit_cents));
        entry.0 += quantity;
        entry.1 = unit_cents;
    }

    pub fn subtotal(&self) -> u64 {
        self.lines.values().map(|&(q, c)| u64::from(q) * c).sum()
    }
}
