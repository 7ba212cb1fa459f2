use super::*;

fn table() -> RateTable {
    RateTable::new(&[(1_000, 700), (0, 450), (5_000, 1_500), (20_000, 4_000)])
}

#[test]
fn empty_table() {
    assert_eq!(RateTable::new(&[]).price_for(10), None);
}

#[test]
fn tier_boundaries() {
    let t = table();
    assert_eq!(t.price_for(0), Some(450));
    assert_eq!(t.price_for(999), Some(450));
    assert_eq!(t.price_for(1_000), Some(700));
    assert_eq!(t.price_for(4_999), Some(700));
    assert_eq!(t.price_for(5_000), Some(1_500));
}

#[test]
fn heaviest_tier_is_open_ended() {
    assert_eq!(table().price_for(u32::MAX), Some(4_000));
}

#[test]
fn lighter_than_every_tier() {
    let t = RateTable::new(&[(500, 300)]);
    assert_eq!(t.price_for(499), None);
    assert_eq!(t.price_for(500), Some(300));
}

#[test]
fn later_duplicates_win() {
    let t = RateTable::new(&[(100, 1), (100, 2)]);
    assert_eq!(t.price_for(150), Some(2));
}
