/// A warehouse stock record.
#[derive(Debug, Clone)]
pub struct StockItem {
    pub sku: String,
    pub on_hand: u32,
    pub reorder_point: u32,
    pub discontinued: bool,
}

/// The purchase list: every item that is not discontinued and whose stock is
/// strictly below its reorder point, with the quantity that brings its stock
/// up to twice the reorder point. Largest quantities come first; equal
/// quantities are ordered by SKU.
pub fn reorder_list(items: &[StockItem]) -> Vec<(String, u32)> {
    let mut list: Vec<(String, u32)> = items
        .iter()
        .filter(|item| !item.discontinued && item.on_hand < item.reorder_point)
        .map(|item| (item.sku.clone(), 2 * item.reorder_point - item.on_hand))
        .collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    list
}
