/// One kind of item kept in stock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub sku: String,
    pub quantity: u32,
    /// Below this quantity the item must be reordered.
    pub reorder_level: u32,
    /// How many units one reorder brings.
    pub reorder_batch: u32,
}

impl Item {
    pub fn new(sku: &str, quantity: u32, reorder_level: u32, reorder_batch: u32) -> Item {
        Item { sku: sku.to_string(), quantity, reorder_level, reorder_batch }
    }
}
