use super::*;

#[test]
fn small_positions() {
    assert_eq!(gray_to_binary(0), 0);
    assert_eq!(gray_to_binary(0b1), 1);
    assert_eq!(gray_to_binary(0b11), 2);
    assert_eq!(gray_to_binary(0b10), 3);
    assert_eq!(gray_to_binary(0b110), 4);
}

#[test]
fn round_trip_first_positions() {
    for n in 0u32..10_000 {
        assert_eq!(gray_to_binary(n ^ (n >> 1)), n);
    }
}

#[test]
fn round_trip_high_positions() {
    for &n in &[u32::MAX, u32::MAX - 1, 1 << 31, 0xDEAD_BEEF, 0x8000_0001, 0x7FFF_FFFF] {
        assert_eq!(gray_to_binary(n ^ (n >> 1)), n, "{:#x}", n);
    }
}

#[test]
fn top_bit_alone() {
    assert_eq!(gray_to_binary(1 << 31), u32::MAX);
}
