use super::*;
use std::collections::BTreeMap;

fn order(region: &str, amount_cents: u64, refunded: bool) -> Order {
    Order { region: region.to_string(), amount_cents, refunded }
}

#[test]
fn no_orders_no_regions() {
    assert!(totals_by_region(&[]).is_empty());
}

#[test]
fn groups_regions_case_insensitively() {
    let orders = [order(" eu ", 100, false), order("EU", 250, true), order("us", 40, false), order("Eu", 10, false)];
    let mut expected = BTreeMap::new();
    expected.insert("EU".to_string(), (3, 110));
    expected.insert("US".to_string(), (1, 40));
    assert_eq!(totals_by_region(&orders), expected);
}

#[test]
fn refunded_only_region_has_zero_revenue() {
    let mut expected = BTreeMap::new();
    expected.insert("APAC".to_string(), (2, 0));
    assert_eq!(totals_by_region(&[order("apac", 500, true), order("Apac", 70, true)]), expected);
}

#[test]
fn large_sums() {
    let orders = [order("x", u64::from(u32::MAX), false), order("X", u64::from(u32::MAX), false)];
    assert_eq!(totals_by_region(&orders)["X"], (2, 2 * u64::from(u32::MAX)));
}
