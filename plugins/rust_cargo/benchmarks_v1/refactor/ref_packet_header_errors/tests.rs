use super::*;

#[test]
fn valid_packet() {
    let p = [0xA5, 2, 7, 0x01, 0x02, 3, 9, 9, 9, 0xFF];
    assert_eq!(parse_header(&p), Ok(Header { version: 2, kind: 7, sequence: 0x0102, payload_len: 3 }));
    assert_eq!(parse_header(&[0xA5, 1, 0, 0, 0, 0]).map(|h| h.payload_len), Ok(0));
}

#[test]
fn truncated_input() {
    assert_eq!(parse_header(&[]), Err(HeaderError::Truncated { needed: 6, got: 0 }));
    assert_eq!(parse_header(&[0x00, 9, 9]), Err(HeaderError::Truncated { needed: 6, got: 3 }));
}

#[test]
fn bad_magic_and_version() {
    assert_eq!(parse_header(&[0x5A, 9, 0, 0, 0, 0]), Err(HeaderError::BadMagic(0x5A)));
    assert_eq!(parse_header(&[0xA5, 3, 0, 0, 0, 0]), Err(HeaderError::UnsupportedVersion(3)));
    assert_eq!(parse_header(&[0xA5, 0, 0, 0, 0, 200]), Err(HeaderError::UnsupportedVersion(0)));
}

#[test]
fn payload_longer_than_buffer() {
    assert_eq!(parse_header(&[0xA5, 1, 0, 0, 1, 4, 1, 2]), Err(HeaderError::PayloadTooLong { declared: 4, available: 2 }));
    assert_eq!(parse_header(&[0xA5, 1, 0, 0, 1, 255]), Err(HeaderError::PayloadTooLong { declared: 255, available: 0 }));
}
