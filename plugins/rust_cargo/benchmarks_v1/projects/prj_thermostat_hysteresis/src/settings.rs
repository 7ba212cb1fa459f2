/// Temperatures in tenths of a degree Celsius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub target: i32,
    /// Half-width of the dead band around the target.
    pub band: i32,
}
