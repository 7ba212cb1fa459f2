use super::*;

#[test]
fn degenerate_windows() {
    assert!(window_peaks(&[1, 2, 3], 0).is_empty());
    assert!(window_peaks(&[1, 2, 3], 4).is_empty());
    assert!(window_peaks(&[], 1).is_empty());
}

#[test]
fn window_of_one_is_identity() {
    assert_eq!(window_peaks(&[4, 1, 7], 1), vec![4, 1, 7]);
}

#[test]
fn typical_windows() {
    assert_eq!(window_peaks(&[1, 3, 2, 5, 4, 1, 1, 0], 3), vec![3, 5, 5, 5, 4, 1]);
    assert_eq!(window_peaks(&[9, 8, 7, 6], 2), vec![9, 8, 7]);
    assert_eq!(window_peaks(&[2, 2, 2], 2), vec![2, 2]);
}

#[test]
fn whole_slice_window() {
    assert_eq!(window_peaks(&[3, 9, 4], 3), vec![9]);
}

#[test]
fn matches_brute_force_on_long_input() {
    let loads: Vec<u32> = (0..3_000u32).map(|i| (i * 7919) % 1_000).collect();
    for &w in &[2usize, 17, 500] {
        let expected: Vec<u32> = loads.windows(w).map(|s| *s.iter().max().unwrap()).collect();
        assert_eq!(window_peaks(&loads, w), expected);
    }
}
