/// Rearranges `readings` in place into three groups: values below `low`,
/// values from `low` to `high` inclusive, then values above `high`
/// (`low <= high`). The order within each group is unspecified.
///
/// Returns `(a, b)` such that `readings[..a]` are below `low`,
/// `readings[a..b]` are within the range and `readings[b..]` are above
/// `high`. Uses O(1) extra memory and a single pass.
pub fn partition_readings(readings: &mut [i32], low: i32, high: i32) -> (usize, usize) {
