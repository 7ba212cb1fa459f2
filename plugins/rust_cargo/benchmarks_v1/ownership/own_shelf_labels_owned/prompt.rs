// Task: `free_labels` lists the free shelf labels of a warehouse, as its doc
// comment says. The file does not compile. Fix it and return the whole
// corrected file.

/// Labels every shelf 1..=`shelves` of every aisle as "<aisle>-<shelf>" with a
/// two-digit shelf number ("B-03"), aisle by aisle, and returns the labels
/// that are not in `reserved`.
pub fn free_labels(aisles: &[char], shelves: u32, reserved: &[&str]) -> Vec<String> {
    let mut free: Vec<&str> = Vec::new();
    for &aisle in aisles {
        for shelf in 1..=shelves {
            let label = format!("{}-{:02}", aisle, shelf);
            if !reserved.contains(&label.as_str()) {
                free.push(&label);
            }
        }
    }
    free.into_iter().map(String::from).collect()
}
