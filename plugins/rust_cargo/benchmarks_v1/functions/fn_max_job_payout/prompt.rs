/// A paid job that occupies the machine during the half-open interval
/// `[start, end)` of minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    pub start: u32,
    pub end: u32,
    pub pay: u64,
}

/// Returns the largest total pay achievable by running a subset of `jobs` on
/// a single machine, where no two chosen jobs overlap (a job may start exactly
/// when another ends). Jobs have `start <= end`. Must handle thousands of jobs
/// quickly (O(n log n)).
pub fn max_total_pay(jobs: &[Job]) -> u64 {
