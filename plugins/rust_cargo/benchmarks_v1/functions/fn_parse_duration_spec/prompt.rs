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
