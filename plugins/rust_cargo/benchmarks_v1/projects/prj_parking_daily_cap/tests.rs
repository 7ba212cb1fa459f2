use crate::garage::{ExitError, Garage};
use crate::tariff::Tariff;

fn garage() -> Garage {
    Garage::new(Tariff { grace_minutes: 15, cents_per_hour: 250, daily_max_cents: 1_500 })
}

#[test]
fn grace_period_is_free() {
    let mut g = garage();
    let t = g.enter(100);
    assert_eq!(g.exit(t, 115), Ok(0));
}

#[test]
fn started_hours_are_charged() {
    let mut g = garage();
    let t = g.enter(0);
    assert_eq!(g.exit(t, 16), Ok(250));
    let t = g.enter(0);
    assert_eq!(g.exit(t, 121), Ok(750));
}

#[test]
fn each_day_is_capped() {
    let mut g = garage();
    let t = g.enter(0);
    assert_eq!(g.exit(t, 10 * 60), Ok(1_500));
    let t = g.enter(0);
    // two full days capped, then 90 minutes = 2 started hours
    assert_eq!(g.exit(t, 2 * 1440 + 90), Ok(3_000 + 500));
    let t = g.enter(0);
    assert_eq!(g.exit(t, 1440), Ok(1_500));
}

#[test]
fn unknown_and_closed_tickets() {
    let mut g = garage();
    assert_eq!(g.exit(42, 10), Err(ExitError::UnknownTicket));
    let t = g.enter(0);
    assert!(g.exit(t, 30).is_ok());
    assert_eq!(g.exit(t, 40), Err(ExitError::UnknownTicket));
}

#[test]
fn exit_before_entry_keeps_ticket_open() {
    let mut g = garage();
    let t = g.enter(500);
    assert_eq!(g.exit(t, 499), Err(ExitError::BeforeEntry));
    assert_eq!(g.exit(t, 560), Ok(250));
}
