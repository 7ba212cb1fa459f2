use super::*;

#[test]
fn empty_plans() {
    assert_eq!(count_damaged_zones(&[]), 0);
    assert_eq!(count_damaged_zones(&["", "...", ".."]), 0);
}

#[test]
fn separate_and_joined_zones() {
    let plan = ["##..#", "#...#", "..#..", "....#"];
    assert_eq!(count_damaged_zones(&plan), 4);
}

#[test]
fn diagonal_tiles_are_separate() {
    assert_eq!(count_damaged_zones(&["#.#", ".#.", "#.#"]), 5);
}

#[test]
fn winding_zone_counts_once() {
    let plan = ["#####", "....#", "###.#", "#...#", "#####"];
    assert_eq!(count_damaged_zones(&plan), 1);
}

#[test]
fn ragged_rows() {
    assert_eq!(count_damaged_zones(&["#", "##", "..#", "...#"]), 3);
    assert_eq!(count_damaged_zones(&["#", "##", ".##"]), 1);
    assert_eq!(count_damaged_zones(&["..#", "#", "..#"]), 3);
}

#[test]
fn other_characters_are_intact() {
    assert_eq!(count_damaged_zones(&["#é#", "xxx", "#ü#"]), 4);
}

#[test]
fn large_zone_does_not_overflow_the_stack() {
    let row = "#".repeat(300);
    let plan: Vec<&str> = (0..300).map(|_| row.as_str()).collect();
    assert_eq!(count_damaged_zones(&plan), 1);
}
