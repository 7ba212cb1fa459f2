// Task: implement `JobQueue` with `std::collections::BinaryHeap`.
// `push(job)` submits a job; `pop()` returns the job with the highest
// `Priority` (from `crate::job`), and among equal priorities the one
// submitted first; `len()` and `is_empty()` as usual. `drain_up_to(budget)`
// pops jobs in that same order while the next job's cost fits in what is
// left of the budget, stopping at the first job that does not fit (it stays
// queued), and returns the popped jobs.
use crate::job::Job;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry {
    seq: u64,
    job: Job,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl Ord for Entry {
    /// Greater means popped first: higher priority, then lower sequence number.
    fn cmp(&self, other: &Entry) -> Ordering {
        self.job.priority.cmp(&other.job.priority).then_with(|| other.seq.cmp(&self.seq))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

pub struct JobQueue {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
}

impl JobQueue {
    pub fn new() -> JobQueue {
        JobQueue { heap: BinaryHeap::new(), next_seq: 0 }
    }

    pub fn push(&mut self, job: Job) {
        self.heap.push(Entry { seq: self.next_seq, job });
        self.next_seq += 1;
    }

    pub fn pop(&mut self) -> Option<Job> {
        self.heap.pop().map(|e| e.job)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn drain_up_to(&mut self, budget: u32) -> Vec<Job> {
        let mut left = budget;
        let mut out = Vec::new();
        while let Some(next) = self.heap.peek() {
            if next.job.cost > left {
                break;
            }
            left -= next.job.cost;
            out.extend(self.pop());
        }
        out
    }
}

impl Default for JobQueue {
    fn default() -> Self {
        JobQueue::new()
    }
}
