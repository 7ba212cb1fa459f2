use super::*;

#[test]
fn stable_versions() {
    assert_eq!(bump("1.4.2", Bump::Patch).as_deref(), Some("1.4.3"));
    assert_eq!(bump("1.4.2", Bump::Minor).as_deref(), Some("1.5.0"));
    assert_eq!(bump("1.4.2", Bump::Major).as_deref(), Some("2.0.0"));
    assert_eq!(bump("9.9.9", Bump::Major).as_deref(), Some("10.0.0"));
}

#[test]
fn zero_major_treats_major_as_minor() {
    assert_eq!(bump("0.3.7", Bump::Major).as_deref(), Some("0.4.0"));
    assert_eq!(bump("0.3.7", Bump::Minor).as_deref(), Some("0.4.0"));
    assert_eq!(bump("0.3.7", Bump::Patch).as_deref(), Some("0.3.8"));
}

#[test]
fn malformed_versions() {
    for bad in ["1.2", "1.2.3.4", "a.b.c", "1..3", "", "1.2.-3"] {
        assert_eq!(bump(bad, Bump::Patch), None, "{}", bad);
    }
}
