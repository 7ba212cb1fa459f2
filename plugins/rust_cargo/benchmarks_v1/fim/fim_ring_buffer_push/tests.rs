use super::*;

#[test]
fn fills_without_overwriting() {
    let mut rb = RingBuffer::new(3);
    assert!(rb.is_empty());
    assert_eq!(rb.push(1), None);
    assert_eq!(rb.push(2), None);
    assert_eq!(rb.to_vec(), vec![1, 2]);
    assert_eq!(rb.len(), 2);
}

#[test]
fn overwrites_the_oldest_when_full() {
    let mut rb = RingBuffer::new(3);
    for v in 1..=3 {
        assert_eq!(rb.push(v), None);
    }
    assert_eq!(rb.push(4), Some(1));
    assert_eq!(rb.to_vec(), vec![2, 3, 4]);
    assert_eq!(rb.push(5), Some(2));
    assert_eq!(rb.push(6), Some(3));
    assert_eq!(rb.push(7), Some(4));
    assert_eq!(rb.to_vec(), vec![5, 6, 7]);
    assert_eq!(rb.len(), 3);
}

#[test]
fn capacity_one_keeps_the_latest() {
    let mut rb = RingBuffer::new(1);
    assert_eq!(rb.push("a".to_string()), None);
    assert_eq!(rb.push("b".to_string()), Some("a".to_string()));
    assert_eq!(rb.to_vec(), vec!["b".to_string()]);
}

#[test]
fn many_wraps_keep_order() {
    let mut rb = RingBuffer::new(4);
    for v in 0..103 {
        rb.push(v);
    }
    assert_eq!(rb.to_vec(), vec![99, 100, 101, 102]);
}
