use super::*;
use std::cmp::Ordering;

#[test]
fn valid_versions_parse() {
    assert_eq!(Version::parse("1.20.3"), Ok(Version { major: 1, minor: 20, patch: 3 }));
    assert_eq!(Version::parse("0.0.0"), Ok(Version { major: 0, minor: 0, patch: 0 }));
}

#[test]
fn wrong_part_count() {
    assert_eq!(Version::parse("1.2"), Err(VersionError::WrongPartCount(2)));
    assert_eq!(Version::parse("1.2.3.4"), Err(VersionError::WrongPartCount(4)));
    assert_eq!(Version::parse(""), Err(VersionError::WrongPartCount(1)));
}

#[test]
fn invalid_numbers() {
    assert_eq!(Version::parse("1.x.3"), Err(VersionError::InvalidNumber("x".to_string())));
    assert_eq!(Version::parse("1..3"), Err(VersionError::InvalidNumber("".to_string())));
    assert_eq!(Version::parse("1.2.-3"), Err(VersionError::InvalidNumber("-3".to_string())));
    assert_eq!(Version::parse("1.2.99999999999"), Err(VersionError::InvalidNumber("99999999999".to_string())));
}

#[test]
fn leading_zero_and_order_of_checks() {
    assert_eq!(Version::parse("1.02.3"), Err(VersionError::LeadingZero("02".to_string())));
    assert_eq!(Version::parse("01.x.3"), Err(VersionError::LeadingZero("01".to_string())));
    assert_eq!(Version::parse("a.01.3"), Err(VersionError::InvalidNumber("a".to_string())));
}

#[test]
fn precedence_still_works() {
    let a = Version::parse("1.10.0").unwrap();
    let b = Version::parse("1.9.7").unwrap();
    assert_eq!(a.cmp_precedence(&b), Ordering::Greater);
}
