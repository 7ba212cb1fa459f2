//! A household ledger: money amounts, transactions and statements.
pub mod money;
pub mod statement;
pub mod txn;
