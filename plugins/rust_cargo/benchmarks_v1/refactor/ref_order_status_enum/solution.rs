// Task: replace the status strings with an enum `OrderStatus` (variants
// Pending, Paid, Shipped, Delivered, Cancelled; derive Debug, Clone, Copy,
// PartialEq, Eq) that implements `Display` with the same lower-case words.
// Turn `advance` and `cancel` into methods
//   pub fn advance(self) -> Result<OrderStatus, OrderStatus>
//   pub fn cancel(self) -> Result<OrderStatus, OrderStatus>
// where Err carries the unchanged status, and make `is_final` a method
// `fn is_final(self) -> bool`. The transition rules stay the same.
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderStatus {
    Pending,
    Paid,
    Shipped,
    Delivered,
    Cancelled,
}

impl OrderStatus {
    /// pending -> paid -> shipped -> delivered; any other status fails.
    pub fn advance(self) -> Result<OrderStatus, OrderStatus> {
        match self {
            OrderStatus::Pending => Ok(OrderStatus::Paid),
            OrderStatus::Paid => Ok(OrderStatus::Shipped),
            OrderStatus::Shipped => Ok(OrderStatus::Delivered),
            other => Err(other),
        }
    }

    /// Only orders that have not shipped yet can be cancelled.
    pub fn cancel(self) -> Result<OrderStatus, OrderStatus> {
        match self {
            OrderStatus::Pending | OrderStatus::Paid => Ok(OrderStatus::Cancelled),
            other => Err(other),
        }
    }

    pub fn is_final(self) -> bool {
        matches!(self, OrderStatus::Delivered | OrderStatus::Cancelled)
    }
}

impl fmt::Display for OrderStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self {
            OrderStatus::Pending => "pending",
            OrderStatus::Paid => "paid",
            OrderStatus::Shipped => "shipped",
            OrderStatus::Delivered => "delivered",
            OrderStatus::Cancelled => "cancelled",
        };
        f.write_str(word)
    }
}
