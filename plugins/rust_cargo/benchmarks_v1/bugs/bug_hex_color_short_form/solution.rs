// Task: a theme editor parses CSS-style hex colours with `parse_color` and
// writes them back with `Rgb::to_hex`, as the doc comments say. The code
// compiles but has a bug. Fix it and return the whole corrected file.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

impl Rgb {
    /// Lower-case "#rrggbb".
    pub fn to_hex(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

/// Parses "#rrggbb" or the short form "#rgb", in which every digit is doubled
/// ("#f80" is "#ff8800"). Hex digits may be upper or lower case. Anything else
/// gives None.
pub fn parse_color(s: &str) -> Option<Rgb> {
    let hex = s.strip_prefix('#')?;
    let digits = hex.chars().map(|c| c.to_digit(16).map(|d| d as u8)).collect::<Option<Vec<u8>>>()?;
    match *digits.as_slice() {
        [r, g, b] => Some(Rgb { r: r * 17, g: g * 17, b: b * 17 }),
        [r1, r2, g1, g2, b1, b2] => Some(Rgb { r: r1 * 16 + r2, g: g1 * 16 + g2, b: b1 * 16 + b2 }),
        _ => None,
    }
}
