// Task: `count_hits` tallies page views from web-server log batches, one
// worker thread per batch, as its doc comment says. The file does not compile.
// Fix it and return the whole corrected file.
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::thread;

/// Counts how often each page occurs across all batches. Every batch is
/// processed by its own thread, all threads updating one shared table. Returns
/// (page, hits) sorted by page.
pub fn count_hits(batches: Vec<Vec<String>>) -> Vec<(String, usize)> {
    let counts: Rc<RefCell<HashMap<String, usize>>> = Rc::new(RefCell::new(HashMap::new()));
    let mut workers = Vec::new();
    for batch in batches {
        let counts = Rc::clone(&counts);
        workers.push(thread::spawn(move || {
            for page in batch {
                *counts.borrow_mut().entry(page).or_insert(0) += 1;
            }
        }));
    }
    for worker in workers {
        worker.join().unwrap();
    }
    let table = counts.borrow();
    let mut out: Vec<(String, usize)> = table.iter().map(|(page, n)| (page.clone(), *n)).collect();
    out.sort();
    out
}
