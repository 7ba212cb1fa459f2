/// Returns the smallest number of coins, taken from the denominations in
/// `coins` (each usable any number of times), whose values add up exactly to
/// `amount` cents, as a vending machine paying out change needs.
///
/// Returns `Some(0)` for an amount of 0 and `None` when the amount cannot be
/// paid exactly. Denominations of 0 are ignored. The denominations are not
/// necessarily "canonical", so picking the largest coin first is not enough.
pub fn fewest_coins(coins: &[u32], amount: u32) -> Option<u32> {
