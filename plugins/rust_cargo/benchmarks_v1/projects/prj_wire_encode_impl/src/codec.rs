#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodecError {
    /// The input ended early.
    Truncated,
    /// A string field was not valid UTF-8.
    BadUtf8,
    /// A string longer than 255 bytes cannot be encoded.
    TooLong,
    /// A boolean byte other than 0 or 1.
    InvalidFlag(u8),
}

pub trait Encode {
    fn encode(&self, out: &mut Vec<u8>) -> Result<(), CodecError>;
}

pub trait Decode: Sized {
    /// Decodes a value from the front of `input` and advances `input` past it.
    fn decode(input: &mut &[u8]) -> Result<Self, CodecError>;
}

/// Takes `n` bytes from the front of `input`.
pub fn take<'a>(input: &mut &'a [u8], n: usize) -> Result<&'a [u8], CodecError> {
    if input.len() < n {
        return Err(CodecError::Truncated);
    }
    let (head, rest) = input.split_at(n);
    *input = rest;
    Ok(head)
}

pub fn read_u16(input: &mut &[u8]) -> Result<u16, CodecError> {
    let b = take(input, 2)?;
    Ok(u16::from_be_bytes([b[0], b[1]]))
}

pub fn read_i32(input: &mut &[u8]) -> Result<i32, CodecError> {
    let b = take(input, 4)?;
    Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// A string is one length byte followed by that many UTF-8 bytes.
pub fn write_str(out: &mut Vec<u8>, s: &str) -> Result<(), CodecError> {
    if s.len() > 255 {
        return Err(CodecError::TooLong);
    }
    out.push(s.len() as u8);
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

pub fn read_str(input: &mut &[u8]) -> Result<String, CodecError> {
    let len = take(input, 1)?[0] as usize;
    let bytes = take(input, len)?;
    String::from_utf8(bytes.to_vec()).map_err(|_| CodecError::BadUtf8)
}
