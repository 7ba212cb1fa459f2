use super::*;

fn drain(queue: &mut JobQueue) -> Vec<String> {
    std::iter::from_fn(|| queue.next_job()).collect()
}

#[test]
fn empty_queue_yields_nothing() {
    let mut queue = JobQueue::new();
    assert!(queue.is_empty());
    assert_eq!(queue.next_job(), None);
}

#[test]
fn higher_priority_runs_first() {
    let mut queue = JobQueue::new();
    queue.submit("backup", 1);
    queue.submit("page-oncall", 9);
    queue.submit("reindex", 5);
    assert_eq!(queue.len(), 3);
    assert_eq!(drain(&mut queue), vec!["page-oncall", "reindex", "backup"]);
}

#[test]
fn equal_priorities_keep_submission_order() {
    let mut queue = JobQueue::new();
    for name in ["a", "b", "c", "d", "e"] {
        queue.submit(name, 3);
    }
    assert_eq!(drain(&mut queue), vec!["a", "b", "c", "d", "e"]);
}

#[test]
fn interleaved_submissions() {
    let mut queue = JobQueue::new();
    queue.submit("low-1", 0);
    queue.submit("high-1", 7);
    queue.submit("low-2", 0);
    assert_eq!(queue.next_job().as_deref(), Some("high-1"));
    queue.submit("high-2", 7);
    queue.submit("mid", 4);
    assert_eq!(drain(&mut queue), vec!["high-2", "mid", "low-1", "low-2"]);
}
