/// Buckets request latencies (in milliseconds) into a histogram. `bounds` are
/// ascending, inclusive upper bounds: bucket `i` counts latencies that are at
/// most `bounds[i]` and above every earlier bound. The result has
/// `bounds.len() + 1` counts; the last counts latencies above every bound.
pub fn histogram(latencies: &[u32], bounds: &[u32]) -> Vec<usize> {
    let mut counts = vec![0; bounds.len() + 1];
    for &ms in latencies {
        /*FILL*/
    }
    counts
}
