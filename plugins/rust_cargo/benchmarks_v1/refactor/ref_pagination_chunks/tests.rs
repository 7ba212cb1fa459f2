use super::*;

#[test]
fn pages_borrow_sub_slices() {
    let ids = [1, 2, 3, 4, 5];
    let mut it = pages(&ids, 2);
    assert_eq!(it.next(), Some(&[1, 2][..]));
    assert_eq!(it.next(), Some(&[3, 4][..]));
    assert_eq!(it.next(), Some(&[5][..]));
    assert_eq!(it.next(), None);
}

#[test]
fn works_without_clone() {
    struct Ticket(u32);
    let tickets = vec![Ticket(7), Ticket(8), Ticket(9)];
    let last = page(&tickets, 2, 1).unwrap();
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].0, 9);
}

#[test]
fn page_out_of_range_is_none() {
    let names = vec!["a".to_string(), "b".to_string()];
    assert_eq!(page(&names, 2, 0).map(|p| p.len()), Some(2));
    assert!(page(&names, 2, 1).is_none());
    assert!(page::<u8>(&[], 3, 0).is_none());
}

#[test]
fn page_count_matches_pages() {
    let v: Vec<u8> = (0..10).collect();
    assert_eq!(pages(&v, 3).count(), page_count(10, 3));
    assert_eq!(pages(&v, 10).count(), 1);
    assert_eq!(pages(&v[..0], 4).count(), 0);
}
