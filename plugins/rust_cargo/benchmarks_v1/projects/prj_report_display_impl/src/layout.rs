/// Pads `s` with spaces on the right to `width` characters.
pub fn pad_right(s: &str, width: usize) -> String {
    let len = s.chars().count();
    format!("{}{}", s, " ".repeat(width.saturating_sub(len)))
}

/// Pads `s` with spaces on the left to `width` characters.
pub fn pad_left(s: &str, width: usize) -> String {
    let len = s.chars().count();
    format!("{}{}", " ".repeat(width.saturating_sub(len)), s)
}
