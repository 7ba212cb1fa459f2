/// Returns the smallest number of coins, taken from the denominations in
/// `coins` (each usable any number of times), whose values add up exactly to
/// `amount` cents, as a vending machine paying out change needs.
///
/// Returns `Some(0)` for an amount of 0 and `None` when the amount cannot be
/// paid exactly. Denominations of 0 are ignored. The denominations are not
/// necessarily "canonical", so picking the largest coin first is not enough.
pub fn fewest_coins(coins: &[u32], amount: u32) -> Option<u32> {
    let target = amount as usize;
    let mut best: Vec<Option<u32>> = vec![None; target + 1];
    best[0] = Some(0);
    for value in 1..=target {
        best[value] = coins
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| c != 0 && c <= value)
            .filter_map(|c| best[value - c])
            .min()
            .map(|n| n + 1);
    }
    best[target]
}
