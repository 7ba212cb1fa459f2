// Task: `count_hits` tallies page views from web-server log batches, one
// worker thread per batch, as its doc comment says. The file does not compile.
// Fix it and return the whole corrected file.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::thread;

/// Counts how often each page occurs across all batches. Every batch is
/// processed by its own thread, all threads updating one shared table. Returns
/// (page, hits) sorted by page.
pub fn count_hits(batches: Vec<Vec<String>>) -> Vec<(String, usize)> {
    let counts: Arc<Mutex<HashMap<String, usize>>> = Arc::new(Mutex::new(HashMap::new()));
    let mut workers = Vec::new();
    for batch in batches {
        let counts = Arc::clone(&counts);
        workers.push(thread::spawn(move || {
            for page in batch {
                *counts.lock().unwrap().entry(page).or_insert(0) += 1;
            }
        }));
    }
    for worker in workers {
        worker.join().unwrap();
    }
    let table = counts.lock().unwrap();
    let mut out: Vec<(String, usize)> = table.iter().map(|(page, n)| (page.clone(), *n)).collect();
    out.sort();
    out
}
