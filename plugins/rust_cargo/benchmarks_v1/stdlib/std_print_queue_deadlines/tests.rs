use super::*;

fn job(id: u32, deadline: u32, pages: u32) -> PrintJob {
    PrintJob { id, deadline, pages }
}

#[test]
fn empty_queue() {
    let mut queue = PrintQueue::new();
    assert_eq!(queue.pending(), 0);
    assert_eq!(queue.next_job(), None);
}

#[test]
fn earliest_deadline_first() {
    let mut queue = PrintQueue::new();
    queue.submit(job(1, 30, 5));
    queue.submit(job(2, 10, 50));
    queue.submit(job(3, 20, 1));
    assert_eq!(queue.pending(), 3);
    assert_eq!(queue.next_job(), Some(job(2, 10, 50)));
    assert_eq!(queue.next_job(), Some(job(3, 20, 1)));
    assert_eq!(queue.next_job(), Some(job(1, 30, 5)));
    assert_eq!(queue.next_job(), None);
}

#[test]
fn ties_by_pages_then_id() {
    let mut queue = PrintQueue::new();
    queue.submit(job(9, 5, 3));
    queue.submit(job(4, 5, 3));
    queue.submit(job(7, 5, 1));
    let order: Vec<u32> = std::iter::from_fn(|| queue.next_job()).map(|j| j.id).collect();
    assert_eq!(order, vec![7, 4, 9]);
}

#[test]
fn interleaved_submissions() {
    let mut queue = PrintQueue::new();
    queue.submit(job(1, 50, 1));
    queue.submit(job(2, 40, 1));
    assert_eq!(queue.next_job().map(|j| j.id), Some(2));
    queue.submit(job(3, 10, 1));
    queue.submit(job(4, 60, 1));
    assert_eq!(queue.pending(), 3);
    assert_eq!(queue.next_job().map(|j| j.id), Some(3));
    assert_eq!(queue.next_job().map(|j| j.id), Some(1));
    assert_eq!(queue.next_job().map(|j| j.id), Some(4));
    assert_eq!(queue.pending(), 0);
}
