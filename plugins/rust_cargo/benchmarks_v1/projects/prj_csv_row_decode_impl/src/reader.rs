use crate::row::{FromRow, RowError};

/// Decodes every non-blank line after the header; errors carry the 1-based
/// line number in the input.
pub fn read_all<T: FromRow>(csv: &str) -> (Vec<T>, Vec<(usize, RowError)>) {
    let mut ok = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in csv.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        match T::from_row(&fields) {
            Ok(v) => ok.push(v),
            Err(e) => errors.push((i + 1, e)),
        }
    }
    (ok, errors)
}
