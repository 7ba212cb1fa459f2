use super::*;

#[test]
fn full_pages() {
    let items: Vec<u32> = (1..=6).collect();
    assert_eq!(page(&items, 0, 3), &[1, 2, 3]);
    assert_eq!(page(&items, 1, 3), &[4, 5, 6]);
    assert_eq!(page_count(items.len(), 3), 2);
}

#[test]
fn last_page_is_shorter() {
    let items = ["a", "b", "c", "d", "e"];
    assert_eq!(page(&items, 2, 2), &["e"]);
    assert_eq!(page_count(items.len(), 2), 3);
    let all: Vec<&str> = (0..page_count(items.len(), 2)).flat_map(|i| page(&items, i, 2).to_vec()).collect();
    assert_eq!(all, items);
}

#[test]
fn past_the_end_is_empty() {
    let items = [1, 2, 3];
    assert!(page(&items, 1, 3).is_empty());
    assert!(page(&items, usize::MAX, 2).is_empty());
    assert!(page(&items, 0, 0).is_empty());
    assert_eq!(page_count(0, 10), 0);
}

#[test]
fn page_larger_than_the_list() {
    let items = [7, 8];
    assert_eq!(page(&items, 0, 10), &[7, 8]);
    assert_eq!(page_count(2, 10), 1);
}
