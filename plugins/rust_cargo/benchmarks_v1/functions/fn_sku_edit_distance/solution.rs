/// Returns how many single-character edits (inserting, deleting or replacing
/// one character) are needed to turn the product code `a` into `b`. Used to
/// suggest the closest known SKU when a clerk mistypes one.
///
/// Characters are Unicode scalar values and are compared exactly
/// (case-sensitive).
pub fn sku_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let replace = previous[j] + usize::from(ca != cb);
            current[j + 1] = replace.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}
