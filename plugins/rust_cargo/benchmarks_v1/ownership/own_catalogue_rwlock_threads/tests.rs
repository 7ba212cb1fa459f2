use super::*;

fn order(items: &[&str]) -> Vec<String> {
    items.iter().map(|i| i.to_string()).collect()
}

fn shop() -> Catalogue {
    Catalogue::new(&[("tea", 450), ("mug", 1_200), ("spoon", 150)])
}

#[test]
fn totals_in_order() {
    let c = shop();
    let totals = c.price_orders(vec![order(&["tea", "tea"]), order(&["mug", "spoon", "tea"]), order(&[])]);
    assert_eq!(totals, vec![Some(900), Some(1_800), Some(0)]);
}

#[test]
fn unknown_items_fail_their_order_only() {
    let c = shop();
    assert_eq!(c.price_orders(vec![order(&["tea", "kettle"]), order(&["spoon"])]), vec![None, Some(150)]);
}

#[test]
fn price_updates_are_seen_by_later_orders() {
    let c = shop();
    c.set_price("tea", 500);
    c.set_price("kettle", 3_000);
    assert_eq!(c.price("tea"), Some(500));
    assert_eq!(c.price_orders(vec![order(&["tea", "kettle"])]), vec![Some(3_500)]);
}

#[test]
fn many_orders() {
    let c = shop();
    let orders: Vec<Vec<String>> = (0..20).map(|i| order(&vec!["spoon"; i])).collect();
    let expected: Vec<Option<u64>> = (0..20).map(|i| Some(150 * i as u64)).collect();
    assert_eq!(c.price_orders(orders), expected);
}
