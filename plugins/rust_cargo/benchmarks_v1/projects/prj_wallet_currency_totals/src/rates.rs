use crate::currency::Currency;
use std::collections::HashMap;

/// Exchange rates in millionths: 1 major unit of `from` buys
/// `micro / 1_000_000` major units of `to`.
#[derive(Debug, Default)]
pub struct RateTable {
    micro: HashMap<(Currency, Currency), u64>,
}

impl RateTable {
    pub fn new() -> RateTable {
        RateTable::default()
    }

    pub fn set(&mut self, from: Currency, to: Currency, micro: u64) {
        self.micro.insert((from, to), micro);
    }

    /// The rate stored for exactly this direction.
    pub fn direct(&self, from: Currency, to: Currency) -> Option<u64> {
        self.micro.get(&(from, to)).copied()
    }
}
