/// Compares two permission masks and returns `(granted, revoked)`: the bit
/// indices (0 is the least significant bit) that are set in `after` but not
/// in `before`, and those set in `before` but not in `after`, each list in
/// ascending order.
pub fn permission_changes(before: u32, after: u32) -> (Vec<u32>, Vec<u32>) {
    (bit_indices(after & !before), bit_indices(before & !after))
}

fn bit_indices(mut mask: u32) -> Vec<u32> {
    let mut indices = Vec::with_capacity(mask.count_ones() as usize);
    while mask != 0 {
        indices.push(mask.trailing_zeros());
        mask &= mask - 1;
    }
    indices
}
