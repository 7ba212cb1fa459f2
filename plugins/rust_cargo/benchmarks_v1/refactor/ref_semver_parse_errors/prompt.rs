// Task: `Version::parse` panics on bad input. Make it return
// `Result<Version, VersionError>` with the enum (Debug, PartialEq)
//   WrongPartCount(usize)      the number of dot-separated parts found, if not 3
//   InvalidNumber(String)      a part that is not a decimal u32
//   LeadingZero(String)        a part like "01" (a lone "0" is fine)
// checked in that order, part by part from left to right. Valid input must
// give the same Version.
use std::cmp::Ordering;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl Version {
    /// Parses "MAJOR.MINOR.PATCH", e.g. "1.20.3".
    pub fn parse(s: &str) -> Version {
        let parts: Vec<&str> = s.split('.').collect();
        assert_eq!(parts.len(), 3, "expected three parts");
        let mut nums = [0u32; 3];
        for (i, p) in parts.iter().enumerate() {
            if !p.chars().all(|c| c.is_ascii_digit()) {
                panic!("not a number: {}", p);
            }
            if p.len() > 1 && p.starts_with('0') {
                panic!("leading zero: {}", p);
            }
            nums[i] = p.parse().unwrap();
        }
        Version { major: nums[0], minor: nums[1], patch: nums[2] }
    }

    pub fn cmp_precedence(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch))
    }
}
