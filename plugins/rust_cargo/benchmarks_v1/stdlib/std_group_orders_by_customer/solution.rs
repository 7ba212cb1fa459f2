use std::collections::HashMap;

/// One line of an order export.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderLine {
    pub customer: String,
    pub order_id: u32,
    pub amount_cents: u64,
}

/// Groups order lines by customer: for each customer, the order ids in input
/// order (repeats kept) and the total amount in cents.
pub fn group_by_customer(lines: &[OrderLine]) -> HashMap<String, (Vec<u32>, u64)> {
    let mut groups: HashMap<String, (Vec<u32>, u64)> = HashMap::new();
    for line in lines {
        let (ids, total) = groups.entry(line.customer.clone()).or_default();
        ids.push(line.order_id);
        *total += line.amount_cents;
    }
    groups
}
