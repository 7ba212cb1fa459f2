/// Parses a column of medication doses such as `"250 mg"` or `"2 g"` into
/// milligrams, in order.
///
/// Each entry is a non-negative integer amount, one space, and the unit `mg`
/// or `g` (1 g = 1000 mg). Returns `Err(index)` with the 0-based index of the
/// first invalid entry (including an amount in mg that overflows `u64`).
pub fn parse_doses(entries: &[&str]) -> Result<Vec<u64>, usize> {
    entries
        .iter()
        .enumerate()
