// Task: `shorten` trims notification titles for a phone's lock screen, as the
// doc comment says. The code compiles but has a bug. Fix it and return the
// whole corrected file.

/// Returns `title` unchanged if it has at most `max_chars` characters.
/// Otherwise returns its first `max_chars - 1` characters followed by '…', so
/// that the result has exactly `max_chars` characters. With `max_chars` zero
/// the result is empty.
pub fn shorten(title: &str, max_chars: usize) -> String {
    if title.chars().count() <= max_chars {
        return title.to_string();
    }
    if max_chars == 0 {
        return String::new();
    }
    let mut out: String = title.chars().take(max_chars - 1).collect();
    out.push('…');
    out
}
