/// Parses a dotted-quad IPv4 address such as `"192.168.0.1"` into its 32-bit
/// value, the first octet being the most significant byte.
///
/// The text must be exactly four octets separated by `.`; each octet is 1 to
/// 3 ASCII digits with a value of at most 255, and has no leading zero unless
/// it is exactly `"0"` (to avoid octal ambiguity). Anything else, including
/// spaces and signs, gives `None`.
pub fn parse_ipv4(text: &str) -> Option<u32> {
