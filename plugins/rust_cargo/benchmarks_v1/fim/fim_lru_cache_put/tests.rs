use super::*;

fn get(cache: &mut LruCache, key: &str) -> Option<String> {
    cache.get(key).cloned()
}

#[test]
fn stores_and_returns_values() {
    let mut cache = LruCache::new(2);
    assert_eq!(cache.put("a", "1"), None);
    assert_eq!(cache.put("b", "2"), None);
    assert_eq!(cache.len(), 2);
    assert_eq!(get(&mut cache, "a").as_deref(), Some("1"));
    assert_eq!(get(&mut cache, "zzz"), None);
}

#[test]
fn evicts_the_least_recently_used() {
    let mut cache = LruCache::new(2);
    cache.put("a", "1");
    cache.put("b", "2");
    get(&mut cache, "a");
    assert_eq!(cache.put("c", "3"), Some("b".to_string()));
    assert_eq!(get(&mut cache, "b"), None);
    assert_eq!(get(&mut cache, "a").as_deref(), Some("1"));
    assert_eq!(get(&mut cache, "c").as_deref(), Some("3"));
    assert_eq!(cache.len(), 2);
}

#[test]
fn replacing_a_key_updates_value_and_recency() {
    let mut cache = LruCache::new(2);
    cache.put("a", "1");
    cache.put("b", "2");
    assert_eq!(cache.put("a", "3"), None);
    assert_eq!(cache.len(), 2);
    assert_eq!(cache.put("c", "4"), Some("b".to_string()));
    assert_eq!(get(&mut cache, "a").as_deref(), Some("3"));
}

#[test]
fn capacity_one_and_zero() {
    let mut one = LruCache::new(1);
    assert_eq!(one.put("x", "1"), None);
    assert_eq!(one.put("y", "2"), Some("x".to_string()));
    assert_eq!(one.put("z", "3"), Some("y".to_string()));
    let mut zero = LruCache::new(0);
    assert_eq!(zero.put("x", "1"), None);
    assert!(zero.is_empty());
    assert_eq!(get(&mut zero, "x"), None);
}
