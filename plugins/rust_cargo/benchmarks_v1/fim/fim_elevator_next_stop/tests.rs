use super::*;

#[test]
fn no_requests_no_stop() {
    assert_eq!(next_stop(3, Direction::Idle, &[]), None);
    assert_eq!(next_stop(3, Direction::Up, &[]), None);
}

#[test]
fn current_floor_is_served_at_once() {
    assert_eq!(next_stop(5, Direction::Up, &[9, 5, 1]), Some((5, Direction::Up)));
    assert_eq!(next_stop(5, Direction::Idle, &[5]), Some((5, Direction::Idle)));
}

#[test]
fn moving_cars_keep_their_direction() {
    assert_eq!(next_stop(5, Direction::Up, &[2, 9, 7]), Some((7, Direction::Up)));
    assert_eq!(next_stop(5, Direction::Down, &[2, 9, 7, 4]), Some((4, Direction::Down)));
}

#[test]
fn moving_cars_turn_around_when_nothing_is_ahead() {
    assert_eq!(next_stop(5, Direction::Up, &[2, 3]), Some((3, Direction::Down)));
    assert_eq!(next_stop(5, Direction::Down, &[8, 7]), Some((7, Direction::Up)));
}

#[test]
fn idle_cars_go_to_the_nearest_floor() {
    assert_eq!(next_stop(5, Direction::Idle, &[8, 3]), Some((3, Direction::Down)));
    assert_eq!(next_stop(5, Direction::Idle, &[6, 1]), Some((6, Direction::Up)));
    assert_eq!(next_stop(0, Direction::Idle, &[-2]), Some((-2, Direction::Down)));
    assert_eq!(next_stop(0, Direction::Idle, &[4, 12]), Some((4, Direction::Up)));
}

#[test]
fn idle_ties_prefer_the_lower_floor() {
    assert_eq!(next_stop(5, Direction::Idle, &[7, 3]), Some((3, Direction::Down)));
}
