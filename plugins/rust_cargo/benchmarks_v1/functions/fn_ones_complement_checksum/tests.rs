use super::*;

#[test]
fn empty_data() {
    assert_eq!(ones_complement_checksum(&[]), 0xFFFF);
}

#[test]
fn ipv4_header_example() {
    let header = [
        0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01,
        0xc0, 0xa8, 0x00, 0xc7,
    ];
    assert_eq!(ones_complement_checksum(&header), 0xb861);
}

#[test]
fn odd_length_is_padded_on_the_right() {
    assert_eq!(ones_complement_checksum(&[0x01]), 0xFEFF);
    assert_eq!(ones_complement_checksum(&[0x12, 0x34, 0x56]), !(0x1234u16 + 0x5600));
}

#[test]
fn carry_wraps_around() {
    assert_eq!(ones_complement_checksum(&[0xFF, 0xFF, 0x00, 0x01]), 0xFFFE);
    assert_eq!(ones_complement_checksum(&[0xFF, 0xFF]), 0x0000);
    assert_eq!(ones_complement_checksum(&[0xFF; 1000]), 0x0000);
}

#[test]
fn appending_the_checksum_verifies_to_zero() {
    let mut packet: Vec<u8> = (0u8..=200).collect();
    packet.push(0);
    let sum = ones_complement_checksum(&packet);
    packet.extend_from_slice(&sum.to_be_bytes());
    assert_eq!(ones_complement_checksum(&packet), 0);
}
