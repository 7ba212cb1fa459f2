// Task: replace the status strings with an enum `OrderStatus` (variants
// Pending, Paid, Shipped, Delivered, Cancelled; derive Debug, Clone, Copy,
// PartialEq, Eq) that implements `Display` with the same lower-case words.
// Turn `advance` and `cancel` into methods
//   pub fn advance(self) -> Result<OrderStatus, OrderStatus>
//   pub fn cancel(self) -> Result<OrderStatus, OrderStatus>
// where Err carries the unchanged status, and make `is_final` a method
// `fn is_final(self) -> bool`. The transition rules stay the same.

/// pending -> paid -> shipped -> delivered; "advance" on any other status fails.
pub fn advance(status: &str) -> Result<String, String> {
    let next = match status {
        "pending" => "paid",
        "paid" => "shipped",
        "shipped" => "delivered",
        _ => return Err(status.to_string()),
    };
    Ok(next.to_string())
}

/// Only orders that have not shipped yet can be cancelled.
pub fn cancel(status: &str) -> Result<String, String> {
    if status == "pending" || status == "paid" {
        Ok("cancelled".to_string())
    } else {
        Err(status.to_string())
    }
}

pub fn is_final(status: &str) -> bool {
    status == "delivered" || status == "cancelled"
}
