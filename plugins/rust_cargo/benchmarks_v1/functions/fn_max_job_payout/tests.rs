use super::*;

fn j(start: u32, end: u32, pay: u64) -> Job {
    Job { start, end, pay }
}

#[test]
fn no_jobs() {
    assert_eq!(max_total_pay(&[]), 0);
}

#[test]
fn back_to_back_jobs_fit() {
    assert_eq!(max_total_pay(&[j(0, 10, 5), j(10, 20, 5), j(20, 30, 5)]), 15);
}

#[test]
fn one_big_job_beats_small_ones() {
    assert_eq!(max_total_pay(&[j(0, 10, 5), j(5, 15, 50), j(10, 20, 5)]), 50);
}

#[test]
fn small_ones_beat_one_big_job() {
    assert_eq!(max_total_pay(&[j(0, 10, 30), j(5, 15, 50), j(10, 20, 30)]), 60);
}

#[test]
fn unsorted_input() {
    let jobs = [j(3, 10, 20), j(1, 2, 50), j(6, 19, 100), j(2, 100, 200)];
    assert_eq!(max_total_pay(&jobs), 250);
}

#[test]
fn many_jobs() {
    // 5000 unit jobs back to back, plus long jobs that each overlap 10 of them.
    let mut jobs: Vec<Job> = (0..5_000).map(|i| j(i, i + 1, 1)).collect();
    jobs.extend((0..500).map(|k| j(k * 10, k * 10 + 10, 11)));
    assert_eq!(max_total_pay(&jobs), 5_500);
}
