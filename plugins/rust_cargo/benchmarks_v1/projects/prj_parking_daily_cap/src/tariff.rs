/// Prices in cents, times in minutes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tariff {
    /// Stays up to this long are free.
    pub grace_minutes: u64,
    /// Charged for every started hour of the stay (once past the grace period).
    pub cents_per_hour: u64,
    /// The most one 24-hour day of a stay can cost.
    pub daily_max_cents: u64,
}

pub const MINUTES_PER_DAY: u64 = 24 * 60;

/// Number of started hours in `minutes` (0 for 0).
pub fn started_hours(minutes: u64) -> u64 {
    (minutes + 59) / 60
}
