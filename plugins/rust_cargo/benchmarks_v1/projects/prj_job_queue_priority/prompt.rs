// Task: implement `JobQueue` with `std::collections::BinaryHeap`.
// `push(job)` submits a job; `pop()` returns the job with the highest
// `Priority` (from `crate::job`), and among equal priorities the one
// submitted first; `len()` and `is_empty()` as usual. `drain_up_to(budget)`
// pops jobs in that same order while the next job's cost fits in what is
// left of the budget, stopping at the first job that does not fit (it stays
// queued), and returns the popped jobs.
use crate::job::Job;

pub struct JobQueue {}

impl JobQueue {
    pub fn new() -> JobQueue {
        JobQueue {}
    }
}
