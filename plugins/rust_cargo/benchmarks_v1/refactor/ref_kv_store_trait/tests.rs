use super::*;

#[test]
fn memory_store_through_generic_functions() {
    let mut m = MemoryStore::default();
    assert_eq!(copy_all(&[("a", "1"), ("b", "x"), ("a", "2")], &mut m), 3);
    assert_eq!(m.len(), 2);
    assert_eq!(increment(&mut m, "a"), Some(3));
    assert_eq!(increment(&mut m, "new"), Some(1));
    assert_eq!(increment(&mut m, "b"), None);
}

#[test]
fn capped_store_refuses_new_keys() {
    let mut c = CappedStore::new(2);
    assert_eq!(copy_all(&[("a", "1"), ("b", "2"), ("c", "3"), ("a", "9")], &mut c), 3);
    assert_eq!(c.get("a"), Some("9".to_string()));
    assert_eq!(c.get("c"), None);
    assert_eq!(increment(&mut c, "z"), None);
    assert_eq!(increment(&mut c, "b"), Some(3));
}

#[test]
fn works_through_trait_objects() {
    let mut stores: Vec<Box<dyn KeyValueStore>> = vec![Box::new(MemoryStore::default()), Box::new(CappedStore::new(0))];
    let accepted: Vec<usize> = stores.iter_mut().map(|s| copy_all(&[("k", "v")], s.as_mut())).collect();
    assert_eq!(accepted, vec![1, 0]);
    assert_eq!(stores[0].remove("k"), Some("v".to_string()));
    assert_eq!(stores[0].len(), 0);
}

#[test]
fn remove_frees_capacity() {
    let mut c = CappedStore::new(1);
    assert!(c.set("a", "1"));
    assert!(!c.set("b", "1"));
    assert_eq!(c.remove("a"), Some("1".to_string()));
    assert!(c.set("b", "1"));
}
