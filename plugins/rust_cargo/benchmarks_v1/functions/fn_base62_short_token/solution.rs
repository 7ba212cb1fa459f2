/// Encodes a numeric record id as a short URL token in base 62.
///
/// The digits are `0`-`9` (values 0 to 9), then `a`-`z` (10 to 35), then
/// `A`-`Z` (36 to 61). The most significant digit comes first and there are
/// no leading zeros; the id 0 is encoded as `"0"`.
pub fn to_base62(id: u64) -> String {
    const DIGITS: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut rest = id;
    let mut reversed = Vec::new();
    loop {
        reversed.push(DIGITS[(rest % 62) as usize]);
        rest /= 62;
        if rest == 0 {
            break;
        }
    }
    reversed.iter().rev().map(|&b| char::from(b)).collect()
}
