// Task: `JobQueue` is the scheduler queue of a build server; its doc comment
// gives the order in which jobs come out. The code compiles but has a bug.
// Fix it and return the whole corrected file.
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Debug, PartialEq, Eq)]
struct Entry {
    priority: u8,
    seq: u64,
    job: String,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.priority.cmp(&other.priority).then_with(|| self.seq.cmp(&other.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Jobs come out highest priority first; jobs of equal priority come out in
/// the order in which they were pushed.
#[derive(Debug, Default)]
pub struct JobQueue {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
}

impl JobQueue {
    pub fn new() -> JobQueue {
        JobQueue::default()
    }

    pub fn push(&mut self, job: &str, priority: u8) {
        self.heap.push(Entry { priority, seq: self.next_seq, job: job.to_string() });
        self.next_seq += 1;
    }

    pub fn pop(&mut self) -> Option<String> {
        self.heap.pop().map(|e| e.job)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Pops every job, in order.
    pub fn drain_all(&mut self) -> Vec<String> {
        std::iter::from_fn(|| self.pop()).collect()
    }
}
