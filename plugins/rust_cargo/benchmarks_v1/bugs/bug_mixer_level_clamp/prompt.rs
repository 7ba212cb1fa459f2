// Task: an audio mixer adjusts channel levels with `apply_delta` and
// `apply_all`, as their doc comments say. The code compiles but has a bug. Fix
// it and return the whole corrected file.

pub const MAX_LEVEL: u16 = 1000;

/// `current + delta`, clamped to 0..=MAX_LEVEL. Any `delta` is allowed.
pub fn apply_delta(current: u16, delta: i32) -> u16 {
    let target = (current as i32 + delta) as u16;
    target.min(MAX_LEVEL)
}

/// Applies the deltas in order, clamping after every step.
pub fn apply_all(start: u16, deltas: &[i32]) -> u16 {
    deltas.iter().fold(start, |level, &d| apply_delta(level, d))
}
