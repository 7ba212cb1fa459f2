/// Rearranges `readings` in place into three groups: values below `low`,
/// values from `low` to `high` inclusive, then values above `high`
/// (`low <= high`). The order within each group is unspecified.
///
/// Returns `(a, b)` such that `readings[..a]` are below `low`,
/// `readings[a..b]` are within the range and `readings[b..]` are above
/// `high`. Uses O(1) extra memory and a single pass.
pub fn partition_readings(readings: &mut [i32], low: i32, high: i32) -> (usize, usize) {
    let (mut below_end, mut i, mut above_start) = (0, 0, readings.len());
    while i < above_start {
        if readings[i] < low {
            readings.swap(below_end, i);
            below_end += 1;
            i += 1;
        } else if readings[i] > high {
            above_start -= 1;
            readings.swap(i, above_start);
        } else {
            i += 1;
        }
    }
    (below_end, above_start)
}
