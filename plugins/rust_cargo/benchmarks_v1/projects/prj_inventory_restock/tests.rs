use crate::item::Item;
use crate::store::Store;

fn store() -> Store {
    let mut s = Store::new();
    s.add(Item::new("b-bolt", 3, 10, 4));
    s.add(Item::new("a-nut", 50, 20, 100));
    s.add(Item::new("c-washer", 0, 1, 25));
    s
}

#[test]
fn restock_reports_items_in_sku_order() {
    let mut s = store();
    assert_eq!(s.restock(), vec![("b-bolt".to_string(), 8), ("c-washer".to_string(), 25)]);
}

#[test]
fn restock_adds_whole_batches_up_to_the_level() {
    let mut s = store();
    s.restock();
    assert_eq!(s.quantity("b-bolt"), Some(11));
    assert_eq!(s.quantity("c-washer"), Some(25));
    assert_eq!(s.quantity("a-nut"), Some(50));
}

#[test]
fn a_second_restock_adds_nothing() {
    let mut s = store();
    s.restock();
    assert!(s.restock().is_empty());
}
