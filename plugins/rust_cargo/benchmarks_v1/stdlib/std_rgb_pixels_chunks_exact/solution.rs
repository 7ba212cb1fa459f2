/// Converts raw RGB image bytes (red, green, blue for each pixel, in order)
/// into packed pixels `0xRRGGBB`. Returns `Err(n)` with the number of
/// leftover bytes (1 or 2) when the length is not a multiple of 3.
pub fn pack_pixels(bytes: &[u8]) -> Result<Vec<u32>, usize> {
    let chunks = bytes.chunks_exact(3);
    if !chunks.remainder().is_empty() {
        return Err(chunks.remainder().len());
    }
    Ok(chunks
        .map(|rgb| (u32::from(rgb[0]) << 16) | (u32::from(rgb[1]) << 8) | u32::from(rgb[2]))
        .collect())
}
