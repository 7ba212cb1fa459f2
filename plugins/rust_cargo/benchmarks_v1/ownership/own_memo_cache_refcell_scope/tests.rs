use super::*;

#[test]
fn miss_then_hit() {
    let cache = Cache::new();
    assert_eq!(cache.get_or_compute("de", |k| format!("lang:{}", k)), "lang:de");
    assert_eq!(cache.get_or_compute("de", |_| unreachable!()), "lang:de");
    assert_eq!(cache.stats(), (1, 1));
}

#[test]
fn each_key_is_computed_once() {
    let cache = Cache::new();
    let mut calls = 0;
    for key in ["a", "b", "a", "c", "b", "a"] {
        cache.get_or_compute(key, |k| {
            calls += 1;
            k.to_uppercase()
        });
    }
    assert_eq!(calls, 3);
    assert_eq!(cache.len(), 3);
    assert_eq!(cache.stats(), (3, 3));
}

#[test]
fn shared_through_a_plain_reference() {
    fn warm(cache: &Cache) {
        cache.get_or_compute("x", |_| "1".to_string());
    }
    let cache = Cache::new();
    assert!(cache.is_empty());
    warm(&cache);
    warm(&cache);
    assert_eq!(cache.get_or_compute("x", |_| "2".to_string()), "1");
}
