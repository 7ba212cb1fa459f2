/// Encodes a numeric record id as a short URL token in base 62.
///
/// The digits are `0`-`9` (values 0 to 9), then `a`-`z` (10 to 35), then
/// `A`-`Z` (36 to 61). The most significant digit comes first and there are
/// no leading zeros; the id 0 is encoded as `"0"`.
pub fn to_base62(id: u64) -> String {
