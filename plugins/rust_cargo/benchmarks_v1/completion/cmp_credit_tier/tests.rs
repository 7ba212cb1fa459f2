use super::*;

#[test]
fn declined_outside_the_score_range_or_above_fifty_percent() {
    assert_eq!(tier(851, 10), Tier::Declined);
    assert_eq!(tier(299, 0), Tier::Declined);
    assert_eq!(tier(800, 51), Tier::Declined);
    assert_eq!(tier(0, 0), Tier::Declined);
}

#[test]
fn prime_boundaries() {
    assert_eq!(tier(850, 36), Tier::Prime);
    assert_eq!(tier(720, 0), Tier::Prime);
    assert_eq!(tier(720, 37), Tier::NearPrime);
    assert_eq!(tier(800, 50), Tier::NearPrime);
}

#[test]
fn near_prime_boundaries() {
    assert_eq!(tier(719, 43), Tier::NearPrime);
    assert_eq!(tier(640, 43), Tier::NearPrime);
    assert_eq!(tier(640, 44), Tier::Subprime);
    assert_eq!(tier(639, 10), Tier::Subprime);
}

#[test]
fn subprime_otherwise() {
    assert_eq!(tier(300, 0), Tier::Subprime);
    assert_eq!(tier(500, 50), Tier::Subprime);
}
