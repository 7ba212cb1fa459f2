/// Parses a compact duration such as `"1h30m"`, `"45s"` or `"2d4h"` into a
/// number of seconds.
///
/// The text is a non-empty sequence of `<digits><unit>` groups, where the unit
/// is one of `d` (86 400 s), `h` (3 600 s), `m` (60 s) or `s` (1 s). Each unit
/// may appear at most once, and units must appear in that order (largest
/// first); units may be skipped. Anything else yields `None`: an empty string,
/// a group without digits, trailing digits without a unit, an unknown,
/// repeated or out-of-order unit, whitespace or signs, or a total that does
/// not fit in `u64`.
pub fn parse_duration_secs(text: &str) -> Option<u64> {
    const UNITS: [(char, u64); 4] = [('d', 86_400), ('h', 3_600), ('m', 60), ('s', 1)];
    if text.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    let mut next_unit = 0;
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if digits.is_empty() {
            return None;
        }
        let offset = UNITS[next_unit..].iter().position(|&(unit, _)| unit == c)?;
        let factor = UNITS[next_unit + offset].1;
        next_unit += offset + 1;
        let amount: u64 = digits.parse().ok()?;
        total = total.checked_add(amount.checked_mul(factor)?)?;
        digits.clear();
    }
    if digits.is_empty() {
        Some(total)
    } else {
        None
    }
}
