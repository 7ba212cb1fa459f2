use std::collections::VecDeque;

/// Simulates a round-robin CPU scheduler. `jobs` are `(name, burst)` pairs in
/// time units, queued in the given order. The job at the front runs for at
/// most `quantum` units (a quantum of 0 counts as 1); if it is not finished
/// it goes to the back of the queue. A job with a burst of 0 finishes as soon
/// as it reaches the front. Returns `(name, completion time)` for every job,
/// in the order the jobs finish; the clock starts at 0.
pub fn round_robin(jobs: &[(&str, u32)], quantum: u32) -> Vec<(String, u64)> {
    let quantum = quantum.max(1);
    let mut queue: VecDeque<(&str, u32)> = jobs.iter().copied().collect();
    let mut clock: u64 = 0;
    let mut finished = Vec::new();
    while let Some((name, remaining)) = queue.pop_front() {
        /*FILL*/
    }
    finished
}
