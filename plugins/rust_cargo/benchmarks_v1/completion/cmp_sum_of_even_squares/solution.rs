/// Returns the sum of the squares of the even numbers in `values`.
/// The sum is computed in `i64` so that large inputs do not overflow.
pub fn sum_of_even_squares(values: &[i32]) -> i64 {
    values
        .iter()
        .filter(|v| *v % 2 == 0)
        .map(|&v| i64::from(v) * i64::from(v))
        .sum()
}
