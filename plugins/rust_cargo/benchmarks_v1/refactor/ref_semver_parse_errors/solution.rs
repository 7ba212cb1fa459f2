// Task: `Version::parse` panics on bad input. Make it return
// `Result<Version, VersionError>` with the enum (Debug, PartialEq)
//   WrongPartCount(usize)      the number of dot-separated parts found, if not 3
//   InvalidNumber(String)      a part that is not a decimal u32
//   LeadingZero(String)        a part like "01" (a lone "0" is fine)
// checked in that order, part by part from left to right. Valid input must
// give the same Version.
use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionError {
    WrongPartCount(usize),
    InvalidNumber(String),
    LeadingZero(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

fn parse_part(p: &str) -> Result<u32, VersionError> {
    if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VersionError::InvalidNumber(p.to_string()));
    }
    if p.len() > 1 && p.starts_with('0') {
        return Err(VersionError::LeadingZero(p.to_string()));
    }
    p.parse().map_err(|_| VersionError::InvalidNumber(p.to_string()))
}

impl Version {
    /// Parses "MAJOR.MINOR.PATCH", e.g. "1.20.3".
    pub fn parse(s: &str) -> Result<Version, VersionError> {
        let parts: Vec<&str> = s.split('.').collect();
        if parts.len() != 3 {
            return Err(VersionError::WrongPartCount(parts.len()));
        }
        Ok(Version { major: parse_part(parts[0])?, minor: parse_part(parts[1])?, patch: parse_part(parts[2])? })
    }

    pub fn cmp_precedence(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch))
    }
}
