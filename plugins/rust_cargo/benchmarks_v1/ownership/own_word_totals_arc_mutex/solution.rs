// Task: `word_totals` builds the vocabulary of a document collection with one
// thread per document, as its doc comment says. The file does not compile.
// Fix it and return the whole corrected file.
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::thread;

/// Counts every whitespace-separated word, lower-cased, across all `docs`.
/// Each document is processed by its own thread; all threads add to one
/// shared map.
pub fn word_totals(docs: Vec<String>) -> BTreeMap<String, usize> {
    let totals = Arc::new(Mutex::new(BTreeMap::new()));
    let workers: Vec<_> = docs
        .into_iter()
        .map(|doc| {
            let totals = Arc::clone(&totals);
            thread::spawn(move || {
                for word in doc.split_whitespace() {
                    *totals.lock().unwrap().entry(word.to_lowercase()).or_insert(0) += 1;
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    Arc::try_unwrap(totals).unwrap().into_inner().unwrap()
}
