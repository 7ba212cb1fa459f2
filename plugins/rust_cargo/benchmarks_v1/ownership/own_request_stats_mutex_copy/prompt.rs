// Task: `aggregate` merges the request logs of several web workers, one thread
// per worker, into one set of statistics, as its doc comment says. The code
// compiles but the result is wrong. Fix it and return the whole corrected file.
use std::sync::{Arc, Mutex};
use std::thread;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub requests: u64,
    /// Responses with a status of 500 or above.
    pub errors: u64,
    pub bytes: u64,
}

/// Each worker's log is a list of (status, response bytes). Every log is
/// processed by its own thread, all adding to one shared `Stats`.
pub fn aggregate(logs: Vec<Vec<(u16, u64)>>) -> Stats {
    let shared = Arc::new(Mutex::new(Stats::default()));
    let workers: Vec<_> = logs
        .into_iter()
        .map(|log| {
            let shared = Arc::clone(&shared);
            thread::spawn(move || {
                for (status, bytes) in log {
                    let mut stats = shared.lock().unwrap().clone();
                    stats.requests += 1;
                    if status >= 500 {
                        stats.errors += 1;
                    }
                    stats.bytes += bytes;
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    let stats = shared.lock().unwrap().clone();
    stats
}
