use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A print job: its id, its deadline (minutes from now) and its page count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintJob {
    pub id: u32,
    pub deadline: u32,
    pub pages: u32,
}

/// A queue of print jobs that hands out the job with the earliest deadline
/// first; among equal deadlines the one with fewer pages, then the one with
/// the smaller id. It is a min-heap built from `BinaryHeap` and `Reverse`.
///
/// Besides `new` and `submit`, it offers `next_job(&mut self) ->
/// Option<PrintJob>`, which removes and returns that job (`None` when empty),
/// and `pending(&self) -> usize`, the number of queued jobs.
#[derive(Debug, Default)]
pub struct PrintQueue {
    heap: BinaryHeap<Reverse<(u32, u32, u32)>>,
}

impl PrintQueue {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `job` to the queue.
    pub fn submit(&mut self, job: PrintJob) {
        self.heap.push(Reverse((job.deadline, job.pages, job.id)));
    }

    /// Removes and returns the most urgent job, or `None` when the queue is empty.
    pub fn next_job(&mut self) -> Option<PrintJob> {
        self.heap
            .pop()
            .map(|Reverse((deadline, pages, id))| PrintJob { id, deadline, pages })
    }

    /// Returns the number of queued jobs.
    pub fn pending(&self) -> usize {
        self.heap.len()
    }
}
