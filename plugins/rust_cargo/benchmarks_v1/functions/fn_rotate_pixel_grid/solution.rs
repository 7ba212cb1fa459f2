/// Rotates a rectangular grid of pixel values 90 degrees clockwise, as an
/// image viewer does when the user turns a photo to the right.
///
/// `rows` holds rows of equal length, top row first; the result has one row
/// per input column. A grid without rows, or with empty rows, rotates to an
/// empty `Vec`.
pub fn rotate_clockwise(rows: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let width = rows.first().map_or(0, Vec::len);
    (0..width)
        .map(|column| rows.iter().rev().map(|row| row[column]).collect())
        .collect()
}
