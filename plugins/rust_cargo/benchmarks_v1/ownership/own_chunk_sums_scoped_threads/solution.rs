// Task: `parallel_chunk_sums` adds up meter readings in parallel, as its doc
// comment says. The file does not compile. Fix it and return the whole
// corrected file.
use std::thread;

/// Splits `readings` into chunks of ceil(len / workers) readings (the last one
/// may be shorter), sums every chunk on its own thread and returns the sums in
/// chunk order. No readings, or zero workers, give an empty result.
pub fn parallel_chunk_sums(readings: &[i64], workers: usize) -> Vec<i64> {
    if readings.is_empty() || workers == 0 {
        return Vec::new();
    }
    let chunk_len = (readings.len() + workers - 1) / workers;
    thread::scope(|scope| {
        let handles: Vec<_> = readings
            .chunks(chunk_len)
            .map(|chunk| scope.spawn(move || chunk.iter().sum::<i64>()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}
