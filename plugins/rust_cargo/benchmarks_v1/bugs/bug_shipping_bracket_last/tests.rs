use super::*;

fn table() -> Vec<Bracket> {
    vec![
        Bracket { max_grams: 500, price_cents: 390 },
        Bracket { max_grams: 2_000, price_cents: 690 },
        Bracket { max_grams: 10_000, price_cents: 1_490 },
    ]
}

#[test]
fn bracket_limits_are_inclusive() {
    assert_eq!(shipping_price(&table(), 500), Some(390));
    assert_eq!(shipping_price(&table(), 501), Some(690));
}

#[test]
fn heaviest_bracket_is_used() {
    assert_eq!(shipping_price(&table(), 9_000), Some(1_490));
    assert_eq!(shipping_price(&table(), 10_000), Some(1_490));
    assert_eq!(shipping_price(&table(), 10_001), None);
}

#[test]
fn empty_table_ships_nothing() {
    assert_eq!(shipping_price(&[], 1), None);
    assert_eq!(quote(&[], &[]), Some(0));
}

#[test]
fn quote_sums_or_fails() {
    assert_eq!(quote(&table(), &[100, 1_500, 5_000]), Some(390 + 690 + 1_490));
    assert_eq!(quote(&table(), &[100, 20_000]), None);
}
