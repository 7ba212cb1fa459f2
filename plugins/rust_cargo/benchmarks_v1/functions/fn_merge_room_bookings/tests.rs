use super::*;

fn b(start: u32, end: u32) -> Booking {
    Booking { start, end }
}

#[test]
fn no_bookings_no_periods() {
    assert!(occupied_periods(&[]).is_empty());
}

#[test]
fn unsorted_overlapping_bookings_merge() {
    let got = occupied_periods(&[b(60, 90), b(0, 30), b(20, 45), b(85, 120)]);
    assert_eq!(got, vec![b(0, 45), b(60, 120)]);
}

#[test]
fn touching_bookings_merge_but_gaps_stay() {
    assert_eq!(occupied_periods(&[b(0, 30), b(30, 60)]), vec![b(0, 60)]);
    assert_eq!(occupied_periods(&[b(0, 30), b(31, 60)]), vec![b(0, 30), b(31, 60)]);
}

#[test]
fn contained_booking_does_not_shrink_period() {
    assert_eq!(occupied_periods(&[b(10, 100), b(20, 30), b(40, 50)]), vec![b(10, 100)]);
}

#[test]
fn empty_bookings_are_ignored() {
    assert_eq!(occupied_periods(&[b(5, 5), b(9, 3)]), vec![]);
    assert_eq!(occupied_periods(&[b(10, 20), b(25, 25), b(20, 20)]), vec![b(10, 20)]);
}
