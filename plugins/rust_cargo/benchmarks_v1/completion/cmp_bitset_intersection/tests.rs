use super::*;

fn set(capacity: usize, items: &[usize]) -> BitSet {
    let mut s = BitSet::new(capacity);
    for &i in items {
        assert!(s.insert(i));
    }
    s
}

#[test]
fn common_elements_across_words() {
    let both = set(100, &[1, 64, 99]).intersection(&set(100, &[64, 99, 3]));
    assert_eq!(both, set(100, &[64, 99]));
    assert_eq!(both.len(), 2);
    assert!(!both.contains(1));
}

#[test]
fn disjoint_sets_intersect_to_empty() {
    let none = set(10, &[1, 2]).intersection(&set(10, &[3, 4]));
    assert!(none.is_empty());
    assert_eq!(none, BitSet::new(10));
}

#[test]
fn capacity_is_the_smaller_one() {
    let both = set(130, &[5, 129]).intersection(&set(70, &[5, 69]));
    assert_eq!(both, set(70, &[5]));
    let mut copy = both.clone();
    assert!(copy.insert(69));
    assert!(!copy.insert(70));
}

#[test]
fn intersection_is_symmetric() {
    let a = set(200, &[0, 63, 64, 127, 128, 199]);
    let b = set(150, &[0, 64, 128, 149]);
    assert_eq!(a.intersection(&b), b.intersection(&a));
    assert_eq!(a.intersection(&b), set(150, &[0, 64, 128]));
}
