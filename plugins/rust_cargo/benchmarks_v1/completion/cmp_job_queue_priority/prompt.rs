use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Job {
    priority: u8,
    seq: u64,
    name: String,
}

/// A job queue: higher priorities run first, and jobs of equal priority run in
/// the order they were submitted.
#[derive(Debug, Default)]
pub struct JobQueue {
    heap: BinaryHeap<Job>,
    next_seq: u64,
}

impl JobQueue {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn submit(&mut self, name: &str, priority: u8) {
        self.heap.push(Job { priority, seq: self.next_seq, name: name.to_string() });
        self.next_seq += 1;
    }

    /// Removes and returns the name of the job that runs next.
    pub fn next_job(&mut self) -> Option<String> {
        self.heap.pop().map(|job| job.name)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Job {
    /// The heap pops its greatest element, so the job that must run first is
    /// the greatest.
    fn cmp(&self, other: &Self) -> Ordering {
