use crate::calendar::Calendar;
use crate::interval::Interval;

fn iv(a: u32, b: u32) -> Interval {
    Interval::new(a, b).unwrap()
}

fn day() -> Calendar {
    let mut c = Calendar::new(iv(540, 1020)); // 09:00-17:00
    c.book(iv(600, 660));
    c.book(iv(630, 700)); // overlaps the previous one
    c.book(iv(900, 960));
    c.book(iv(700, 720)); // touches
    c.book(iv(480, 550)); // starts before opening
    c
}

#[test]
fn free_slots_merge_overlaps() {
    assert_eq!(day().free_slots(1), vec![iv(550, 600), iv(720, 900), iv(960, 1020)]);
}

#[test]
fn min_length_filters() {
    assert_eq!(day().free_slots(60), vec![iv(720, 900), iv(960, 1020)]);
    assert_eq!(day().free_slots(181), vec![]);
}

#[test]
fn empty_and_full_days() {
    let c = Calendar::new(iv(540, 600));
    assert_eq!(c.free_slots(0), vec![iv(540, 600)]);
    let mut full = Calendar::new(iv(540, 600));
    full.book(iv(0, 1440));
    assert_eq!(full.free_slots(0), vec![]);
}

#[test]
fn bookings_outside_hours_are_ignored() {
    let mut c = Calendar::new(iv(540, 600));
    c.book(iv(1000, 1100));
    c.book(iv(100, 540));
    assert_eq!(c.free_slots(10), vec![iv(540, 600)]);
}

#[test]
fn can_book_checks_hours_and_conflicts() {
    let c = day();
    assert!(c.can_book(iv(720, 900)));
    assert!(c.can_book(iv(960, 1020)));
    assert!(!c.can_book(iv(719, 730)));
    assert!(!c.can_book(iv(1000, 1030)));
    assert!(!c.can_book(iv(500, 540)));
}
