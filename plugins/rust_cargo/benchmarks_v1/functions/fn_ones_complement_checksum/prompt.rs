/// Computes the 16-bit ones'-complement checksum used in IPv4, UDP and TCP
/// headers over `data`.
///
/// The bytes are read as big-endian 16-bit words (an odd final byte is padded
/// with a zero byte on the right), the words are added with end-around carry
/// (any carry out of bit 15 is added back into the low bits), and the ones'
/// complement of that sum is returned.
pub fn ones_complement_checksum(data: &[u8]) -> u16 {
