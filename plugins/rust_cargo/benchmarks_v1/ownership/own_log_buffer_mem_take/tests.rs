use super::*;

#[test]
fn flushes_when_full() {
    let mut b = LogBuffer::new(2);
    assert_eq!(b.push("a"), None);
    assert_eq!(b.push("b"), Some(vec!["a".to_string(), "b".to_string()]));
    assert_eq!(b.pending(), 0);
    assert_eq!(b.push("c"), None);
    assert_eq!(b.pending(), 1);
    assert_eq!(b.batches(), 1);
}

#[test]
fn manual_flush() {
    let mut b = LogBuffer::new(10);
    b.push("x");
    b.push("y");
    assert_eq!(b.flush(), vec!["x".to_string(), "y".to_string()]);
    assert!(b.flush().is_empty());
    assert_eq!(b.batches(), 1);
}

#[test]
fn zero_capacity_means_one() {
    let mut b = LogBuffer::new(0);
    assert_eq!(b.push("only"), Some(vec!["only".to_string()]));
    assert_eq!(b.push("next"), Some(vec!["next".to_string()]));
    assert_eq!(b.batches(), 2);
}
