//! Multi-currency wallets.
pub mod currency;
pub mod rates;
pub mod wallet;
