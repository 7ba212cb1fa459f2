use super::*;

#[test]
fn identical_codes() {
    assert_eq!(sku_distance("AB-1234", "AB-1234"), 0);
    assert_eq!(sku_distance("", ""), 0);
}

#[test]
fn distance_to_empty_is_length() {
    assert_eq!(sku_distance("", "XY-9"), 4);
    assert_eq!(sku_distance("XY-9", ""), 4);
}

#[test]
fn single_edits() {
    assert_eq!(sku_distance("AB-1234", "AB-1294"), 1);
    assert_eq!(sku_distance("AB-1234", "AB-134"), 1);
    assert_eq!(sku_distance("AB-134", "AB-1234"), 1);
}

#[test]
fn several_edits() {
    assert_eq!(sku_distance("KT-100", "TK-1000"), 3);
    assert_eq!(sku_distance("flaw", "lawn"), 2);
    assert_eq!(sku_distance("abc", "xyz"), 3);
}

#[test]
fn case_and_unicode() {
    assert_eq!(sku_distance("ab", "AB"), 2);
    assert_eq!(sku_distance("Größe-7", "Grosse-7"), 3);
    assert_eq!(sku_distance("ß", "s"), 1);
}
