// Task: `checksums` verifies uploaded files in parallel, one thread per file,
// collecting the results over a channel, as its doc comment says. The file
// does not compile. Fix it and return the whole corrected file.
use std::sync::mpsc;
use std::thread;

/// A rolling checksum: for every byte, rotate left by 5 bits and xor the byte in.
pub fn checksum(data: &[u8]) -> u32 {
    data.iter().fold(0u32, |acc, &b| acc.rotate_left(5) ^ u32::from(b))
}

/// Computes the checksum of every file on its own thread. Returns
/// (name, checksum) pairs sorted by name.
pub fn checksums(files: Vec<(String, Vec<u8>)>) -> Vec<(String, u32)> {
    let (tx, rx) = mpsc::channel();
    for (name, data) in files {
        let tx = tx.clone();
        thread::spawn(move || {
            let sum = checksum(&data);
            tx.send((name, sum)).unwrap();
        });
    }
    drop(tx);
    let mut results: Vec<(String, u32)> = rx.iter().collect();
    results.sort();
    results
}
