//! A shop checkout: cart lines and pluggable discounts.
pub mod cart;
pub mod discount;
