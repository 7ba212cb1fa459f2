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
        .map(|(index, entry)| parse_dose(entry).ok_or(index))
        .collect()
}

fn parse_dose(entry: &str) -> Option<u64> {
    let (amount, unit) = entry.split_once(' ')?;
    let amount: u64 = amount.parse().ok()?;
    match unit {
        "mg" => Some(amount),
        "g" => amount.checked_mul(1000),
        _ => None,
    }
}
