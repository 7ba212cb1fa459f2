/// Returns how many single-character edits (inserting, deleting or replacing
/// one character) are needed to turn the product code `a` into `b`. Used to
/// suggest the closest known SKU when a clerk mistypes one.
///
/// Characters are Unicode scalar values and are compared exactly
/// (case-sensitive).
pub fn sku_distance(a: &str, b: &str) -> usize {
