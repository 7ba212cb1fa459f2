/// Decodes one component of a URL query: `+` becomes a space and `%XX` (two
/// hex digits) becomes that byte. `None` for a malformed escape or when the
/// bytes are not UTF-8.
fn decode_component(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return None;
                }
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// Parses a query string such as `"q=rust+lang&page=2&debug"` into decoded
/// `(key, value)` pairs, in order. Each segment is split at its first `=`; a
/// segment without `=` has an empty value. Empty segments (from `&&` or a
/// trailing `&`) are skipped, and so is a segment whose key or value fails to
/// decode.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|segment| !segment.is_empty())
        .filter_map(|segment| {
            let (key, value) = segment.split_once('=').unwrap_or((segment, ""));
            Some((decode_component(key)?, decode_component(value)?))
        })
        .collect()
}
