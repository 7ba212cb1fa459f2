#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Currency {
    Eur,
    Usd,
    Gbp,
    Jpy,
}

impl Currency {
    /// Minor units per major unit (cents per euro, 1 for yen).
    pub fn minor_per_major(self) -> u64 {
        match self {
            Currency::Jpy => 1,
            _ => 100,
        }
    }
}
