use super::*;

fn bk(start: u32, end: u32) -> Booking {
    Booking { start, end }
}

fn room(bookings: &[(u32, u32)]) -> Room {
    let mut r = Room::default();
    for &(s, e) in bookings {
        r.book(bk(s, e)).unwrap();
    }
    r
}

#[test]
fn empty_intervals_are_rejected() {
    let mut r = Room::default();
    assert_eq!(r.book(bk(600, 600)), Err(BookError::Empty));
    assert_eq!(r.book(bk(700, 600)), Err(BookError::Empty));
    assert!(r.bookings().is_empty());
}

#[test]
fn touching_bookings_are_kept_sorted() {
    let r = room(&[(600, 660), (540, 600), (660, 720), (0, 30)]);
    assert_eq!(r.bookings(), &[bk(0, 30), bk(540, 600), bk(600, 660), bk(660, 720)]);
}

#[test]
fn conflict_with_an_earlier_booking() {
    let mut r = room(&[(540, 600)]);
    assert_eq!(r.book(bk(570, 630)), Err(BookError::Conflict(bk(540, 600))));
}

#[test]
fn conflict_with_a_later_booking() {
    let mut r = room(&[(600, 660)]);
    assert_eq!(r.book(bk(580, 610)), Err(BookError::Conflict(bk(600, 660))));
    assert_eq!(r.book(bk(600, 601)), Err(BookError::Conflict(bk(600, 660))));
    assert_eq!(r.bookings(), &[bk(600, 660)]);
}

#[test]
fn enclosing_interval_reports_the_earliest() {
    let mut r = room(&[(540, 560), (600, 620)]);
    assert_eq!(r.book(bk(500, 700)), Err(BookError::Conflict(bk(540, 560))));
    assert_eq!(r.book(bk(560, 600)), Ok(()));
    assert_eq!(r.bookings().len(), 3);
}
