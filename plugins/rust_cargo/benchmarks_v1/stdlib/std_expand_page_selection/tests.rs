use super::*;

#[test]
fn single_pages_and_ranges() {
    assert_eq!(expand_pages("1-3, 5,8-9"), Ok(vec![1, 2, 3, 5, 8, 9]));
    assert_eq!(expand_pages("7"), Ok(vec![7]));
    assert_eq!(expand_pages("4-4"), Ok(vec![4]));
}

#[test]
fn order_and_duplicates_are_kept() {
    assert_eq!(expand_pages("10, 2-3, 2"), Ok(vec![10, 2, 3, 2]));
}

#[test]
fn whitespace_around_items() {
    assert_eq!(expand_pages("  1 ,\t2-3  "), Ok(vec![1, 2, 3]));
}

#[test]
fn first_invalid_item_is_reported() {
    assert_eq!(expand_pages(""), Err(String::new()));
    assert_eq!(expand_pages("1,,2"), Err(String::new()));
    assert_eq!(expand_pages("1, 5-3 ,x"), Err("5-3".to_string()));
    assert_eq!(expand_pages("0"), Err("0".to_string()));
    assert_eq!(expand_pages("2, a-b"), Err("a-b".to_string()));
    assert_eq!(expand_pages("1-"), Err("1-".to_string()));
    assert_eq!(expand_pages("1-2-3"), Err("1-2-3".to_string()));
    assert_eq!(expand_pages("4294967296"), Err("4294967296".to_string()));
}

#[test]
fn upper_bound() {
    assert_eq!(expand_pages("4294967294-4294967295"), Ok(vec![u32::MAX - 1, u32::MAX]));
}
