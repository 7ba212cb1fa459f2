//! A parking garage: tickets, tariffs and payment at the exit.
pub mod garage;
pub mod tariff;
