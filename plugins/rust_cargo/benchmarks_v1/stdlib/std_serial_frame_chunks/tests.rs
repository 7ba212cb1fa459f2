use super::*;

#[test]
fn empty_payload_has_no_frames() {
    assert!(frame_payload(&[], 4).is_empty());
}

#[test]
fn frames_carry_sequence_and_checksum() {
    let frames = frame_payload(&[0x01, 0x02, 0x04, 0x08, 0xFF], 2);
    assert_eq!(frames, vec![vec![0, 0x01, 0x02, 0x03], vec![1, 0x04, 0x08, 0x0C], vec![2, 0xFF, 0xFF]]);
}

#[test]
fn frame_larger_than_payload() {
    assert_eq!(frame_payload(&[0xAA, 0x55], 10), vec![vec![0, 0xAA, 0x55, 0xFF]]);
}

#[test]
fn checksum_of_equal_bytes_cancels() {
    assert_eq!(frame_payload(&[7, 7], 2), vec![vec![0, 7, 7, 0]]);
}

#[test]
fn sequence_wraps_after_255() {
    let payload = vec![1u8; 300];
    let frames = frame_payload(&payload, 1);
    assert_eq!(frames.len(), 300);
    assert_eq!(frames[255], vec![255, 1, 1]);
    assert_eq!(frames[256], vec![0, 1, 1]);
    assert_eq!(frames[299][0], 43);
}
