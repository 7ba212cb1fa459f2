use super::*;

fn sale(sku: &str, quantity: u32, unit_price_cents: u64) -> Sale {
    Sale { sku: sku.to_string(), quantity, unit_price_cents }
}

#[test]
fn parses_rows_with_spaces() {
    assert_eq!(
        parse_sales("A-100, 3, 12.50\nB-7,1,0.99"),
        Ok(vec![sale("A-100", 3, 1250), sale("B-7", 1, 99)])
    );
}

#[test]
fn empty_input_is_an_empty_list() {
    assert_eq!(parse_sales(""), Ok(vec![]));
    assert_eq!(parse_sales("\n  \n"), Ok(vec![]));
}

#[test]
fn blank_lines_are_skipped_but_counted() {
    assert_eq!(parse_sales("\nA,1,1.00\n   \nB,x,1.00"), Err(4));
}

#[test]
fn price_needs_exactly_two_decimals() {
    assert_eq!(parse_sales("A,1,12.5"), Err(1));
    assert_eq!(parse_sales("A,1,12"), Err(1));
    assert_eq!(parse_sales("A,1,1.005"), Err(1));
}

#[test]
fn wrong_field_count_or_empty_sku() {
    assert_eq!(parse_sales("A,1"), Err(1));
    assert_eq!(parse_sales("A,1,1.00,x"), Err(1));
    assert_eq!(parse_sales(" ,1,1.00"), Err(1));
    assert_eq!(parse_sales("A,-1,1.00"), Err(1));
}

#[test]
fn the_first_error_wins() {
    assert_eq!(parse_sales("A,1,1.00\nbad\nB,x,1"), Err(2));
}
