use super::*;

#[test]
fn parse_sale_reads_fields() {
    assert_eq!(
        parse_sale(" north , lamp , 3 , 1999 "),
        Some(Sale { region: "north".to_string(), product: "lamp".to_string(), units: 3, unit_cents: 1999 })
    );
}

#[test]
fn parse_sale_rejects_malformed_lines() {
    assert_eq!(parse_sale("north,lamp,3"), None);
    assert_eq!(parse_sale(",lamp,3,100"), None);
    assert_eq!(parse_sale("north,lamp,-1,100"), None);
    assert_eq!(parse_sale("north,lamp,2,1.5"), None);
}

#[test]
fn revenue_is_grouped_and_sorted() {
    let sales = vec![
        parse_sale("west,a,2,150").unwrap(),
        parse_sale("east,b,1,1000").unwrap(),
        parse_sale("west,c,1,5").unwrap(),
    ];
    assert_eq!(revenue_by_region(&sales), vec![("east".to_string(), 1000), ("west".to_string(), 305)]);
    assert!(revenue_by_region(&[]).is_empty());
}

#[test]
fn format_report_layout() {
    assert_eq!(format_report(&[("x".to_string(), 7)], 2), "x: 0.07\nskipped: 2\n");
}

#[test]
fn whole_report_is_unchanged() {
    let csv = "region,product,units,unit_cents\nsouth,kettle,2,2450\nnorth,mug,10,399\nbad line\n\nsouth,mug,1,399\nnorth,x,y,1\n";
    assert_eq!(sales_report(csv), "north: 39.90\nsouth: 52.99\nskipped: 2\n");
}
