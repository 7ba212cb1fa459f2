// Task: `parse_header` indexes blindly and panics. Make it return
// `Result<Header, HeaderError>` with the enum (derive Debug, PartialEq):
//   Truncated { needed: usize, got: usize }   fewer than 6 bytes
//   BadMagic(u8)                              first byte is not 0xA5
//   UnsupportedVersion(u8)                    version other than 1 or 2
//   PayloadTooLong { declared: usize, available: usize }
// checked in that order. Valid packets must give the same Header.

pub const MAGIC: u8 = 0xA5;
const HEADER_LEN: usize = 6;

#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub version: u8,
    pub kind: u8,
    pub sequence: u16,
    pub payload_len: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderError {
    Truncated { needed: usize, got: usize },
    BadMagic(u8),
    UnsupportedVersion(u8),
    PayloadTooLong { declared: usize, available: usize },
}

/// Layout: magic, version, kind, sequence (u16 big-endian), payload length
/// (u8), then the payload itself.
pub fn parse_header(bytes: &[u8]) -> Result<Header, HeaderError> {
    if bytes.len() < HEADER_LEN {
        return Err(HeaderError::Truncated { needed: HEADER_LEN, got: bytes.len() });
    }
    if bytes[0] != MAGIC {
        return Err(HeaderError::BadMagic(bytes[0]));
    }
    let version = bytes[1];
    if version != 1 && version != 2 {
        return Err(HeaderError::UnsupportedVersion(version));
    }
    let payload_len = usize::from(bytes[5]);
    let available = bytes.len() - HEADER_LEN;
    if payload_len > available {
        return Err(HeaderError::PayloadTooLong { declared: payload_len, available });
    }
    Ok(Header { version, kind: bytes[2], sequence: u16::from_be_bytes([bytes[3], bytes[4]]), payload_len })
}
