use super::*;

#[test]
fn all_labels_when_nothing_is_reserved() {
    assert_eq!(free_labels(&['A', 'B'], 2, &[]), vec!["A-01", "A-02", "B-01", "B-02"]);
}

#[test]
fn reserved_labels_are_skipped() {
    assert_eq!(free_labels(&['C'], 4, &["C-02", "C-04", "D-01"]), vec!["C-01", "C-03"]);
}

#[test]
fn two_digit_shelves() {
    let labels = free_labels(&['Z'], 12, &[]);
    assert_eq!(labels.len(), 12);
    assert_eq!(labels[9], "Z-10");
}

#[test]
fn no_aisles_or_shelves() {
    assert!(free_labels(&[], 5, &[]).is_empty());
    assert!(free_labels(&['A'], 0, &[]).is_empty());
}
