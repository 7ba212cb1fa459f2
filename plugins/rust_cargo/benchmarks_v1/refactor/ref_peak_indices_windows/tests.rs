use super::*;

#[test]
fn finds_strict_peaks() {
    let s = [1, 3, 2, 5, 5, 4, 7, 1];
    let mut it = peaks(&s);
    assert_eq!(it.next(), Some(1));
    assert_eq!(it.next(), Some(6));
    assert_eq!(it.next(), None);
}

#[test]
fn works_on_sub_slices() {
    let s = vec![9, 1, 4, 2, 8];
    let v: Vec<usize> = peaks(&s[1..4]).collect();
    assert_eq!(v, vec![1]);
}

#[test]
fn short_signals_have_no_peaks() {
    assert_eq!(peaks(&[]).count(), 0);
    assert_eq!(peaks(&[1, 2]).count(), 0);
    assert_eq!(peak_count(&[5, 1, 5]), 0);
}

#[test]
fn count_matches() {
    assert_eq!(peak_count(&[0, 1, 0, 1, 0, 1, 0]), 3);
    assert_eq!(peak_count(&[-3, -1, -2]), 1);
}
