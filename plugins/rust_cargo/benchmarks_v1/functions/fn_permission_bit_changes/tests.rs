use super::*;

#[test]
fn identical_masks_have_no_changes() {
    assert_eq!(permission_changes(0b1011, 0b1011), (vec![], vec![]));
    assert_eq!(permission_changes(0, 0), (vec![], vec![]));
}

#[test]
fn grants_and_revocations_are_separated() {
    assert_eq!(permission_changes(0b0110, 0b1100), (vec![3], vec![1]));
}

#[test]
fn indices_are_ascending() {
    assert_eq!(permission_changes(0, 0b1010_0101), (vec![0, 2, 5, 7], vec![]));
    assert_eq!(permission_changes(0b1010_0101, 0), (vec![], vec![0, 2, 5, 7]));
}

#[test]
fn high_bits_are_handled() {
    assert_eq!(permission_changes(1 << 31, 1), (vec![0], vec![31]));
    let all: Vec<u32> = (0..32).collect();
    assert_eq!(permission_changes(0, u32::MAX), (all, vec![]));
}
