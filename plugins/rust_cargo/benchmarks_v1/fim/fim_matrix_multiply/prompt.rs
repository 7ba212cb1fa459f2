/// Multiplies an `n x m` matrix `a` by an `m x p` matrix `b`, both given as
/// rows. Every row of `b` must have the same length `p` (0 when `b` is
/// empty) and every row of `a` must have `b.len()` entries; otherwise the
/// result is `None`. An empty `a` gives an empty product.
pub fn mat_mul(a: &[Vec<i64>], b: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    /*FILL*/
}
