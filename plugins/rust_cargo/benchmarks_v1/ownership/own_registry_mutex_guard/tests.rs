use super::*;
use std::sync::Arc;
use std::thread;

#[test]
fn ids_count_up() {
    let r = Registry::new();
    assert_eq!(r.register("probe-a"), 0);
    assert_eq!(r.register("probe-b"), 1);
    assert_eq!(r.name(1), Some("probe-b".to_string()));
    assert_eq!(r.name(2), None);
}

#[test]
fn longest_name_first_wins() {
    let r = Registry::new();
    assert_eq!(r.longest_name(), None);
    r.register("pump");
    r.register("thermostat");
    r.register("hygrometer");
    assert_eq!(r.longest_name(), Some("thermostat".to_string()));
}

#[test]
fn shared_between_threads() {
    let r = Arc::new(Registry::new());
    let workers: Vec<_> = (0..8)
        .map(|t| {
            let r = Arc::clone(&r);
            thread::spawn(move || {
                for i in 0..25 {
                    r.register(&format!("dev-{}-{}", t, i));
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    assert_eq!(r.len(), 200);
    let mut all: Vec<String> = (0..200).map(|id| r.name(id).unwrap()).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 200);
}
