/// Given daily net cash flows, returns the running balance at the end of each
/// day, starting from `opening`. The sequence stops after the first day on
/// which the balance is negative (that day is included).
pub fn balances_until_overdrawn(opening: i64, flows: &[i64]) -> Vec<i64> {
    flows
        .iter()
        .scan(
