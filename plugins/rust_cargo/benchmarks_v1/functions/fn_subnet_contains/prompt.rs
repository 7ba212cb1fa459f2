/// Returns whether the IPv4 address `addr` lies in the network
/// `network/prefix_len` (as in `10.1.0.0/16`), addresses given as `u32` with
/// the first octet in the most significant byte.
///
/// Only the first `prefix_len` bits of `network` matter (its host bits are
/// ignored). A `prefix_len` of 0 matches every address, and a `prefix_len`
/// above 32 is treated as 32.
pub fn in_subnet(addr: u32, network: u32, prefix_len: u8) -> bool {
