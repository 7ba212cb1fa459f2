// Task: `apply_discount` applies a promotion to the lines of a shopping cart,
// as its doc comment says; the caller's cart must reflect the new prices. The
// code compiles but does not work. Fix it and return the whole corrected file.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineItem {
    pub sku: String,
    pub unit_cents: u64,
    pub qty: u32,
}

/// Lowers, in the caller's cart, the unit price of every line whose SKU
/// starts with `prefix` by `percent` percent (at most 100), rounding the new
/// price down to whole cents. Returns the number of lines changed.
pub fn apply_discount(items: &Vec<LineItem>, prefix: &str, percent: u64) -> usize {
    let mut items = items.clone();
    let percent = percent.min(100);
    let mut changed = 0;
    for item in items.iter_mut() {
        if item.sku.starts_with(prefix) {
            item.unit_cents = item.unit_cents * (100 - percent) / 100;
            changed += 1;
        }
    }
    changed
}

/// The value of the cart in cents.
pub fn cart_total(items: &[LineItem]) -> u64 {
    items.iter().map(|i| i.unit_cents * u64::from(i.qty)).sum()
}
