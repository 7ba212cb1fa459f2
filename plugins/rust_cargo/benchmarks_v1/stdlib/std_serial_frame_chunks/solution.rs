/// Splits `payload` into frames for a serial link. The payload is cut into
/// chunks of `frame_size` bytes (the last may be shorter); each frame is a
/// sequence byte (0 for the first frame, wrapping to 0 after 255), the
/// chunk's bytes, then the XOR of the chunk's bytes. An empty payload gives no
/// frames. `frame_size` must be non-zero.
pub fn frame_payload(payload: &[u8], frame_size: usize) -> Vec<Vec<u8>> {
    payload
        .chunks(frame_size)
        .enumerate()
        .map(|(seq, chunk)| {
            let mut frame = Vec::with_capacity(chunk.len() + 2);
            frame.push(seq as u8);
            frame.extend_from_slice(chunk);
            frame.push(chunk.iter().fold(0, |acc, b| acc ^ b));
            frame
        })
        .collect()
}
