use super::*;

#[test]
fn advances_through_the_lifecycle() {
    let s = OrderStatus::Pending.advance().unwrap();
    assert_eq!(s, OrderStatus::Paid);
    let s = s.advance().and_then(OrderStatus::advance).unwrap();
    assert_eq!(s, OrderStatus::Delivered);
    assert_eq!(s.advance(), Err(OrderStatus::Delivered));
    assert_eq!(OrderStatus::Cancelled.advance(), Err(OrderStatus::Cancelled));
}

#[test]
fn cancel_only_before_shipping() {
    assert_eq!(OrderStatus::Pending.cancel(), Ok(OrderStatus::Cancelled));
    assert_eq!(OrderStatus::Paid.cancel(), Ok(OrderStatus::Cancelled));
    assert_eq!(OrderStatus::Shipped.cancel(), Err(OrderStatus::Shipped));
    assert_eq!(OrderStatus::Cancelled.cancel(), Err(OrderStatus::Cancelled));
}

#[test]
fn final_states() {
    assert!(OrderStatus::Delivered.is_final());
    assert!(OrderStatus::Cancelled.is_final());
    assert!(!OrderStatus::Shipped.is_final());
    assert!(!OrderStatus::Pending.is_final());
}

#[test]
fn displays_lower_case_words() {
    let words: Vec<String> = [OrderStatus::Pending, OrderStatus::Paid, OrderStatus::Shipped, OrderStatus::Delivered, OrderStatus::Cancelled]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(words, vec!["pending", "paid", "shipped", "delivered", "cancelled"]);
}
