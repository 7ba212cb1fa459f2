use super::*;

#[test]
fn higher_priority_first() {
    let mut q = JobQueue::new();
    q.push("lint", 1);
    q.push("deploy", 9);
    q.push("test", 5);
    assert_eq!(q.drain_all(), vec!["deploy", "test", "lint"]);
}

#[test]
fn equal_priorities_keep_submission_order() {
    let mut q = JobQueue::new();
    for name in ["a", "b", "c", "d"] {
        q.push(name, 3);
    }
    assert_eq!(q.drain_all(), vec!["a", "b", "c", "d"]);
}

#[test]
fn mixed_priorities_and_ties() {
    let mut q = JobQueue::new();
    q.push("x1", 2);
    q.push("y1", 7);
    q.push("x2", 2);
    q.push("y2", 7);
    assert_eq!(q.pop().as_deref(), Some("y1"));
    q.push("y3", 7);
    assert_eq!(q.drain_all(), vec!["y2", "y3", "x1", "x2"]);
}

#[test]
fn empty_queue() {
    let mut q = JobQueue::new();
    assert!(q.is_empty());
    assert_eq!(q.pop(), None);
    q.push("only", 0);
    assert_eq!(q.len(), 1);
}
