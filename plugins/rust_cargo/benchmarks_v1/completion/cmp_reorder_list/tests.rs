use super::*;

fn item(sku: &str, on_hand: u32, reorder_point: u32, discontinued: bool) -> StockItem {
    StockItem { sku: sku.to_string(), on_hand, reorder_point, discontinued }
}

#[test]
fn nothing_to_order_from_an_empty_warehouse_list() {
    assert!(reorder_list(&[]).is_empty());
}

#[test]
fn orders_items_below_their_reorder_point() {
    let items = [
        item("A", 2, 5, false),
        item("B", 5, 5, false),
        item("C", 0, 4, false),
        item("D", 1, 10, true),
        item("E", 9, 10, false),
    ];
    assert_eq!(
        reorder_list(&items),
        vec![("E".to_string(), 11), ("A".to_string(), 8), ("C".to_string(), 8)]
    );
}

#[test]
fn well_stocked_and_discontinued_items_are_left_out() {
    let items = [item("X", 50, 10, false), item("Y", 0, 10, true), item("Z", 0, 0, false)];
    assert!(reorder_list(&items).is_empty());
}

#[test]
fn ties_are_sorted_by_sku() {
    let items = [item("b-2", 1, 3, false), item("a-9", 0, 2, false), item("b-1", 3, 4, false)];
    assert_eq!(
        reorder_list(&items),
        vec![("b-1".to_string(), 5), ("b-2".to_string(), 5), ("a-9".to_string(), 4)]
    );
}
