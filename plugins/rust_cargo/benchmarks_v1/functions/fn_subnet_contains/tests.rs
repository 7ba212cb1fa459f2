use super::*;

const fn ip(a: u32, b: u32, c: u32, d: u32) -> u32 {
    (a << 24) | (b << 16) | (c << 8) | d
}

#[test]
fn typical_networks() {
    assert!(in_subnet(ip(10, 1, 200, 3), ip(10, 1, 0, 0), 16));
    assert!(!in_subnet(ip(10, 2, 0, 1), ip(10, 1, 0, 0), 16));
    assert!(in_subnet(ip(192, 168, 1, 77), ip(192, 168, 1, 64), 26));
    assert!(!in_subnet(ip(192, 168, 1, 128), ip(192, 168, 1, 64), 26));
}

#[test]
fn host_bits_of_network_are_ignored() {
    assert!(in_subnet(ip(172, 16, 5, 4), ip(172, 16, 9, 9), 16));
}

#[test]
fn prefix_zero_matches_everything() {
    assert!(in_subnet(0, u32::MAX, 0));
    assert!(in_subnet(ip(8, 8, 8, 8), ip(1, 2, 3, 4), 0));
}

#[test]
fn full_and_oversized_prefixes() {
    assert!(in_subnet(ip(1, 2, 3, 4), ip(1, 2, 3, 4), 32));
    assert!(!in_subnet(ip(1, 2, 3, 5), ip(1, 2, 3, 4), 32));
    assert!(!in_subnet(ip(1, 2, 3, 5), ip(1, 2, 3, 4), 40));
    assert!(in_subnet(ip(1, 2, 3, 4), ip(1, 2, 3, 4), 255));
}

#[test]
fn single_bit_prefix() {
    assert!(in_subnet(ip(200, 0, 0, 0), ip(128, 0, 0, 0), 1));
    assert!(!in_subnet(ip(127, 255, 255, 255), ip(128, 0, 0, 0), 1));
}
