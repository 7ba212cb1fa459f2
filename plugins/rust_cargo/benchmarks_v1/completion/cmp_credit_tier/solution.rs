/// Lending tier of a loan applicant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Prime,
    NearPrime,
    Subprime,
    Declined,
}

/// Assigns a tier from a credit score and a debt-to-income ratio in percent:
/// - a score outside `300..=850`, or a ratio above 50, is `Declined`;
/// - a score of 720 or more with a ratio of at most 36 is `Prime`;
/// - a score of 720 or more with a higher ratio, or a score of 640 to 719
///   with a ratio of at most 43, is `NearPrime`;
/// - everything else is `Subprime`.
pub fn tier(score: u16, dti_pct: u8) -> Tier {
    match (score, dti_pct) {
        (s, d) if !(300..=850).contains(&s) || d > 50 => Tier::Declined,
        (720..=850, 0..=36) => Tier::Prime,
        (720..=850, _) | (640..=719, 0..=43) => Tier::NearPrime,
        _ => Tier::Subprime,
    }
}
