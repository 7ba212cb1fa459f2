use super::*;

#[test]
fn nothing_to_load() {
    assert_eq!(best_load_value(&[], 100), 0);
    assert_eq!(best_load_value(&[(10, 5)], 0), 0);
}

#[test]
fn each_parcel_at_most_once() {
    assert_eq!(best_load_value(&[(1, 10)], 5), 10);
}

#[test]
fn best_combination_not_best_ratio() {
    assert_eq!(best_load_value(&[(6, 30), (3, 14), (4, 16), (2, 9)], 10), 46);
    assert_eq!(best_load_value(&[(5, 10), (4, 40), (6, 30), (3, 50)], 10), 90);
}

#[test]
fn too_heavy_parcels_are_skipped() {
    assert_eq!(best_load_value(&[(101, 1_000), (50, 1), (50, 2)], 100), 3);
}

#[test]
fn zero_weight_parcels_are_free() {
    assert_eq!(best_load_value(&[(0, 7), (0, 8), (3, 1)], 2), 15);
}

#[test]
fn larger_instance() {
    let parcels: Vec<(u32, u64)> = (1..=60).map(|w| (w, u64::from(w) * 2 + (u64::from(w) % 7))).collect();
    assert_eq!(best_load_value(&parcels, 500), 1_108);
}
