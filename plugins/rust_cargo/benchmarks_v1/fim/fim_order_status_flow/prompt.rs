/// The states of a shop order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pending,
    Paid,
    Shipped,
    Delivered,
    Cancelled,
    Refunded,
}

/// What can happen to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Pay,
    Ship,
    Deliver,
    Cancel,
    Refund,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidTransition {
    pub from: Status,
    pub action: Action,
}

/// The order life cycle. A pending order can be paid or cancelled. A paid
/// order can be shipped; cancelling or refunding it makes it refunded. A
/// shipped order can only be delivered, and a delivered order can only be
/// refunded. Cancelled and refunded orders are final.
pub fn apply(status: Status, action: Action) -> Result<Status, InvalidTransition> {
    use Action::*;
    use Status::*;
    match (status, action) {
        (Pending, Pay) => Ok(Paid),
        (Pending, Cancel) => Ok(Cancelled),
        /*FILL*/
        (from, action) => Err(InvalidTransition { from, action }),
    }
}

/// Replays `actions` on a new (pending) order, stopping at the first invalid one.
pub fn replay(actions: &[Action]) -> Result<Status, InvalidTransition> {
    actions.iter().try_fold(Status::Pending, |status, &action| apply(status, action))
}
