use super::*;

#[test]
fn typical_quantities() {
    assert_eq!(common_pack_size(&[12, 18, 30]), 6);
    assert_eq!(common_pack_size(&[48, 36]), 12);
}

#[test]
fn coprime_quantities_give_one() {
    assert_eq!(common_pack_size(&[9, 28]), 1);
}

#[test]
fn empty_and_zero_only_give_zero() {
    assert_eq!(common_pack_size(&[]), 0);
    assert_eq!(common_pack_size(&[0, 0]), 0);
}

#[test]
fn zeros_are_ignored() {
    assert_eq!(common_pack_size(&[0, 14, 0, 21]), 7);
    assert_eq!(common_pack_size(&[7]), 7);
}

#[test]
fn large_values() {
    assert_eq!(common_pack_size(&[u64::MAX, u64::MAX / 3]), u64::MAX / 3);
    assert_eq!(common_pack_size(&[1 << 63, 1 << 40]), 1 << 40);
}
