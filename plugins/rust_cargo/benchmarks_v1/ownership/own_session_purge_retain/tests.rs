use super::*;

fn store() -> SessionStore {
    let mut s = SessionStore::new();
    s.add(1, "ana", 100);
    s.add(2, "ben", 10);
    s.add(3, "cai", 20);
    s.add(4, "dan", 150);
    s.add(5, "eve", 0);
    s
}

#[test]
fn removes_adjacent_idle_sessions() {
    let mut s = store();
    assert_eq!(s.purge(160, 60), vec![2, 3, 5]);
    assert_eq!(s.ids(), vec![1, 4]);
}

#[test]
fn boundary_is_kept() {
    let mut s = store();
    assert_eq!(s.purge(160, 140), vec![2, 5]);
    assert_eq!(s.ids(), vec![1, 3, 4]);
}

#[test]
fn future_sessions_are_kept_and_everything_else_can_go() {
    let mut s = store();
    assert!(s.purge(50, 1_000).is_empty());
    assert_eq!(s.purge(1_000, 0), vec![1, 2, 3, 4, 5]);
    assert!(s.ids().is_empty());
}

#[test]
fn empty_store() {
    let mut s = SessionStore::new();
    assert!(s.purge(10, 1).is_empty());
}
