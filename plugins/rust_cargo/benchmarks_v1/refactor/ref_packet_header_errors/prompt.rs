// Task: `parse_header` indexes blindly and panics. Make it return
// `Result<Header, HeaderError>` with the enum (derive Debug, PartialEq):
//   Truncated { needed: usize, got: usize }   fewer than 6 bytes
//   BadMagic(u8)                              first byte is not 0xA5
//   UnsupportedVersion(u8)                    version other than 1 or 2
//   PayloadTooLong { declared: usize, available: usize }
// checked in that order. Valid packets must give the same Header.

pub const MAGIC: u8 = 0xA5;

#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub version: u8,
    pub kind: u8,
    pub sequence: u16,
    pub payload_len: usize,
}

/// Layout: magic, version, kind, sequence (u16 big-endian), payload length
/// (u8), then the payload itself.
pub fn parse_header(bytes: &[u8]) -> Header {
    if bytes[0] != MAGIC {
        panic!("bad magic");
    }
    let version = bytes[1];
    if version != 1 && version != 2 {
        panic!("unsupported version");
    }
    let kind = bytes[2];
    let sequence = u16::from_be_bytes([bytes[3], bytes[4]]);
    let payload_len = bytes[5] as usize;
    let _payload = &bytes[6..6 + payload_len];
    Header { version, kind, sequence, payload_len }
}
