/// Returns the maximum drawdown of an account's balance history: the largest
/// amount by which a balance exceeds any balance recorded after it.
///
/// Balances are in cents and may be negative; the result is computed in
/// `i64` so that it cannot overflow. The result is 0 when the balance never
/// falls below an earlier value (in particular for empty and one-element
/// histories).
pub fn max_drawdown(balances: &[i32]) -> i64 {
    let mut peak: Option<i64> = None;
    let mut worst = 0;
    for balance in balances.iter().map(|&b| i64::from(b)) {
        match peak {
            Some(p) if p >= balance => worst = worst.max(p - balance),
            _ => peak = Some(balance),
        }
    }
    worst
}
