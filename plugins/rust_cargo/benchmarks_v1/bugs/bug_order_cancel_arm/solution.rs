// Task: an online shop tracks orders with a small state machine; `next_state`
// and `replay` must follow the rules in the doc comments. The code compiles but
// has a bug. Fix it and return the whole corrected file.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderState {
    Placed,
    Paid,
    Shipped,
    Delivered,
    Cancelled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Pay,
    Ship,
    Deliver,
    Cancel,
}

/// Placed --Pay--> Paid --Ship--> Shipped --Deliver--> Delivered. An order can
/// be cancelled while it is Placed or Paid, never once it has shipped. Every
/// other combination is rejected as Err((state, event)).
pub fn next_state(state: OrderState, event: Event) -> Result<OrderState, (OrderState, Event)> {
    match (state, event) {
        (OrderState::Placed, Event::Pay) => Ok(OrderState::Paid),
        (OrderState::Paid, Event::Ship) => Ok(OrderState::Shipped),
        (OrderState::Shipped, Event::Deliver) => Ok(OrderState::Delivered),
        (OrderState::Placed, Event::Cancel) | (OrderState::Paid, Event::Cancel) => Ok(OrderState::Cancelled),
        _ => Err((state, event)),
    }
}

/// Applies `events` to a new (Placed) order, stopping at the first rejected one.
pub fn replay(events: &[Event]) -> Result<OrderState, (OrderState, Event)> {
    events.iter().try_fold(OrderState::Placed, |state, &event| next_state(state, event))
}
