/// Multiplies an `n x m` matrix `a` by an `m x p` matrix `b`, both given as
/// rows. Every row of `b` must have the same length `p` (0 when `b` is
/// empty) and every row of `a` must have `b.len()` entries; otherwise the
/// result is `None`. An empty `a` gives an empty product.
pub fn mat_mul(a: &[Vec<i64>], b: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
    let p = b.first().map_or(0, Vec::len);
    if b.iter().any(|row| row.len() != p) || a.iter().any(|row| row.len() != b.len()) {
        return None;
    }
    let product = a
        .iter()
        .map(|row| {
            (0..p)
                .map(|j| row.iter().zip(b).map(|(x, b_row)| x * b_row[j]).sum())
                .collect()
        })
        .collect();
    Some(product)
}
