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
    let mut sorted = jobs.to_vec();
    sorted.sort_by_key(|job| job.end);
    // best[i] is the best pay using only the first i jobs by end time.
    let mut best = vec![0u64; sorted.len() + 1];
    for (i, job) in sorted.iter().enumerate() {
        let compatible = sorted[..i].partition_point(|earlier| earlier.end <= job.start);
        best[i + 1] = best[i].max(best[compatible] + job.pay);
    }
    best[sorted.len()]
}
