use super::*;

fn page(number: usize, offset: usize, len: usize) -> Page {
    Page { number, offset, len }
}

#[test]
fn no_pages() {
    assert_eq!(pages(0, 10).count(), 0);
    assert_eq!(pages(10, 0).count(), 0);
    assert_eq!(pages(10, 0).len(), 0);
}

#[test]
fn last_page_may_be_short() {
    assert_eq!(pages(25, 10).collect::<Vec<_>>(), vec![page(1, 0, 10), page(2, 10, 10), page(3, 20, 5)]);
}

#[test]
fn exact_multiple() {
    assert_eq!(pages(20, 10).collect::<Vec<_>>(), vec![page(1, 0, 10), page(2, 10, 10)]);
    assert_eq!(pages(3, 5).collect::<Vec<_>>(), vec![page(1, 0, 3)]);
}

#[test]
fn exact_size_shrinks_as_pages_are_taken() {
    let mut it = pages(101, 10);
    assert_eq!(it.len(), 11);
    assert_eq!(it.size_hint(), (11, Some(11)));
    it.next();
    it.next();
    assert_eq!(it.len(), 9);
    assert_eq!(it.by_ref().last(), Some(page(11, 100, 1)));
    assert_eq!(it.len(), 0);
    assert_eq!(it.next(), None);
}

#[test]
fn huge_totals_do_not_overflow() {
    let mut it = pages(usize::MAX, usize::MAX / 2);
    assert_eq!(it.len(), 3);
    assert_eq!(it.next(), Some(page(1, 0, usize::MAX / 2)));
    assert_eq!(it.nth(1), Some(page(3, usize::MAX - 1, 1)));
}
