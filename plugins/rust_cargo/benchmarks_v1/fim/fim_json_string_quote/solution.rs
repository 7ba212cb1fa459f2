/// Writes `s` as a JSON string literal, quotes included. `"` and `\` are
/// escaped with a backslash; newline, carriage return and tab become `\n`,
/// `\r` and `\t`; every other character below U+0020 becomes `\u00XX` with
/// lower-case hex digits; everything else is copied unchanged.
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
