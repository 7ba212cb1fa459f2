use super::*;

fn invalid(from: Status, action: Action) -> Result<Status, InvalidTransition> {
    Err(InvalidTransition { from, action })
}

#[test]
fn happy_path() {
    assert_eq!(replay(&[Action::Pay, Action::Ship, Action::Deliver]), Ok(Status::Delivered));
    assert_eq!(replay(&[]), Ok(Status::Pending));
}

#[test]
fn cancelling_and_refunding() {
    assert_eq!(apply(Status::Pending, Action::Cancel), Ok(Status::Cancelled));
    assert_eq!(apply(Status::Paid, Action::Cancel), Ok(Status::Refunded));
    assert_eq!(apply(Status::Paid, Action::Refund), Ok(Status::Refunded));
    assert_eq!(apply(Status::Delivered, Action::Refund), Ok(Status::Refunded));
}

#[test]
fn invalid_transitions() {
    assert_eq!(apply(Status::Shipped, Action::Cancel), invalid(Status::Shipped, Action::Cancel));
    assert_eq!(apply(Status::Shipped, Action::Refund), invalid(Status::Shipped, Action::Refund));
    assert_eq!(apply(Status::Pending, Action::Ship), invalid(Status::Pending, Action::Ship));
    assert_eq!(apply(Status::Delivered, Action::Deliver), invalid(Status::Delivered, Action::Deliver));
    assert_eq!(apply(Status::Paid, Action::Pay), invalid(Status::Paid, Action::Pay));
}

#[test]
fn final_states_accept_nothing() {
    for action in [Action::Pay, Action::Ship, Action::Deliver, Action::Cancel, Action::Refund] {
        assert_eq!(apply(Status::Cancelled, action), invalid(Status::Cancelled, action));
        assert_eq!(apply(Status::Refunded, action), invalid(Status::Refunded, action));
    }
}

#[test]
fn replay_stops_at_the_first_invalid_action() {
    assert_eq!(replay(&[Action::Pay, Action::Deliver, Action::Ship]), invalid(Status::Paid, Action::Deliver));
    assert_eq!(replay(&[Action::Pay, Action::Ship, Action::Deliver, Action::Refund]), Ok(Status::Refunded));
}
