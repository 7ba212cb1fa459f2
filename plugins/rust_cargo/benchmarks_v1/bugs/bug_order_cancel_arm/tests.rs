use super::*;

#[test]
fn happy_path() {
    assert_eq!(replay(&[Event::Pay, Event::Ship, Event::Deliver]), Ok(OrderState::Delivered));
}

#[test]
fn cancelling_before_shipping() {
    assert_eq!(replay(&[Event::Cancel]), Ok(OrderState::Cancelled));
    assert_eq!(replay(&[Event::Pay, Event::Cancel]), Ok(OrderState::Cancelled));
}

#[test]
fn cannot_cancel_after_shipping() {
    assert_eq!(
        replay(&[Event::Pay, Event::Ship, Event::Cancel]),
        Err((OrderState::Shipped, Event::Cancel))
    );
    assert_eq!(
        next_state(OrderState::Delivered, Event::Cancel),
        Err((OrderState::Delivered, Event::Cancel))
    );
    assert_eq!(
        next_state(OrderState::Cancelled, Event::Cancel),
        Err((OrderState::Cancelled, Event::Cancel))
    );
}

#[test]
fn out_of_order_events_are_rejected() {
    assert_eq!(replay(&[Event::Ship]), Err((OrderState::Placed, Event::Ship)));
    assert_eq!(replay(&[Event::Cancel, Event::Pay]), Err((OrderState::Cancelled, Event::Pay)));
}
