use super::*;

#[test]
fn a_strong_password_passes() {
    assert!(check_password("Tr0ub4dor&Zebra", "alice").is_empty());
}

#[test]
fn missing_classes() {
    assert_eq!(check_password("alwayslowercase", ""), vec![Violation::NoDigit, Violation::NoUppercase]);
    assert_eq!(check_password("UPPER-CASE-77", "bob"), vec![Violation::NoLowercase]);
}

#[test]
fn empty_password_breaks_four_rules() {
    assert_eq!(
        check_password("", ""),
        vec![Violation::TooShort, Violation::NoDigit, Violation::NoUppercase, Violation::NoLowercase]
    );
}

#[test]
fn length_counts_characters_not_bytes() {
    assert!(check_password("Éclair1234", "bob").is_empty());
    assert_eq!(check_password("Éclair123", "bob"), vec![Violation::TooShort]);
}

#[test]
fn username_is_matched_case_insensitively() {
    assert_eq!(check_password("ALICE-Secret-99", "alice"), vec![Violation::ContainsUsername]);
    assert_eq!(check_password("Secret-Alic3-99", "alice"), vec![]);
}

#[test]
fn three_in_a_row_is_a_violation() {
    assert_eq!(check_password("Paaassword12", "x"), vec![Violation::RepeatedChar]);
    assert!(check_password("Paassword12", "x").is_empty());
    assert_eq!(check_password("ab1", "ab"), vec![Violation::TooShort, Violation::NoUppercase, Violation::ContainsUsername]);
}
