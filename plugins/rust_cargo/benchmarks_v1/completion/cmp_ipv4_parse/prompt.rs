/// Parses a dotted-quad IPv4 address such as `"192.168.0.1"` into its 32-bit
/// value (first octet in the most significant byte). Exactly four parts are
/// required, each made only of ASCII digits with a value of at most 255;
/// leading zeros are allowed. Anything else gives `None`.
pub fn parse_ipv4(text: &str) -> Option<u32> {
    let mut value: u32 = 0;
    let mut parts = 0;
    for part in text.split('.') {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let octet: u32 = part.parse().ok()?;
        if octet > 255 {
            return None;
        }
        value = 