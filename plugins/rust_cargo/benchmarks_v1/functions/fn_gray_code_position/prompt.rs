/// A rotary encoder reports its position in reflected binary Gray code, in
/// which consecutive positions differ in exactly one bit: position `n` is
/// reported as `n ^ (n >> 1)`. Converts such a reading back to the plain
/// binary position.
pub fn gray_to_binary(gray: u32) -> u32 {
