use std::cmp::Ordering;

/// A semantic version `major.minor.patch` with an optional pre-release tag
/// such as `rc1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
    pub pre: Option<String>,
}

impl Ord for Version {
    /// Orders by major, then minor, then patch. With equal numbers a
    /// pre-release sorts before the release (`1.0.0-rc1 < 1.0.0`), and two
    /// pre-releases compare by their tags as strings.
    fn cmp(&self, other: &Self) -> Ordering {
        self.major
            .cmp(&other.major)
