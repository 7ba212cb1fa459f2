use crate::job::{Job, Priority};
use crate::queue::JobQueue;

fn names(jobs: &[Job]) -> Vec<&str> {
    jobs.iter().map(|j| j.name.as_str()).collect()
}

fn queue() -> JobQueue {
    let mut q = JobQueue::new();
    q.push(Job::new("report", Priority::Normal, 3));
    q.push(Job::new("backup", Priority::Low, 5));
    q.push(Job::new("alert", Priority::Critical, 1));
    q.push(Job::new("email", Priority::Normal, 2));
    q.push(Job::new("resize", Priority::High, 4));
    q.push(Job::new("cleanup", Priority::Normal, 1));
    q
}

#[test]
fn pops_by_priority_then_submission_order() {
    let mut q = queue();
    let mut popped = Vec::new();
    while let Some(j) = q.pop() {
        popped.push(j);
    }
    assert_eq!(names(&popped), vec!["alert", "resize", "report", "email", "cleanup", "backup"]);
}

#[test]
fn len_and_empty() {
    let mut q = queue();
    assert_eq!(q.len(), 6);
    assert!(!q.is_empty());
    q.pop();
    assert_eq!(q.len(), 5);
    assert!(JobQueue::new().is_empty());
    assert_eq!(JobQueue::new().pop(), None);
}

#[test]
fn drain_stops_at_first_job_that_does_not_fit() {
    let mut q = queue();
    let done = q.drain_up_to(9);
    assert_eq!(names(&done), vec!["alert", "resize", "report"]);
    assert_eq!(q.len(), 3);
    assert_eq!(q.pop().map(|j| j.name), Some("email".to_string()));
}

#[test]
fn drain_with_zero_budget_or_large_budget() {
    let mut q = queue();
    assert!(q.drain_up_to(0).is_empty());
    assert_eq!(q.drain_up_to(100).len(), 6);
    assert!(q.is_empty());
}

#[test]
fn many_equal_priorities_keep_fifo() {
    let mut q = JobQueue::new();
    for i in 0..50 {
        q.push(Job::new(&format!("j{}", i), Priority::Low, 0));
    }
    let order: Vec<String> = q.drain_up_to(0).into_iter().map(|j| j.name).collect();
    let expected: Vec<String> = (0..50).map(|i| format!("j{}", i)).collect();
    assert_eq!(order, expected);
}
