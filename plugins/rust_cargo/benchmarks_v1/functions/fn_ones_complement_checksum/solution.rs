/// Computes the 16-bit ones'-complement checksum used in IPv4, UDP and TCP
/// headers over `data`.
///
/// The bytes are read as big-endian 16-bit words (an odd final byte is padded
/// with a zero byte on the right), the words are added with end-around carry
/// (any carry out of bit 15 is added back into the low bits), and the ones'
/// complement of that sum is returned.
pub fn ones_complement_checksum(data: &[u8]) -> u16 {
    let mut sum: u32 = 0;
    for chunk in data.chunks(2) {
        let word = u16::from_be_bytes([chunk[0], chunk.get(1).copied().unwrap_or(0)]);
        sum += u32::from(word);
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    !(sum as u16)
}
