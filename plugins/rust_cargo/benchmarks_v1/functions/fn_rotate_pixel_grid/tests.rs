use super::*;

#[test]
fn empty_grids() {
    assert!(rotate_clockwise(&[]).is_empty());
    assert!(rotate_clockwise(&[vec![], vec![]]).is_empty());
}

#[test]
fn square_grid() {
    let grid = vec![vec![1, 2], vec![3, 4]];
    assert_eq!(rotate_clockwise(&grid), vec![vec![3, 1], vec![4, 2]]);
}

#[test]
fn wide_grid_becomes_tall() {
    let grid = vec![vec![1, 2, 3], vec![4, 5, 6]];
    assert_eq!(rotate_clockwise(&grid), vec![vec![4, 1], vec![5, 2], vec![6, 3]]);
}

#[test]
fn single_row_and_column() {
    assert_eq!(rotate_clockwise(&[vec![7, 8, 9]]), vec![vec![7], vec![8], vec![9]]);
    assert_eq!(rotate_clockwise(&[vec![7], vec![8], vec![9]]), vec![vec![9, 8, 7]]);
}

#[test]
fn four_rotations_are_identity() {
    let grid: Vec<Vec<u8>> = (0..3).map(|r| (0..5).map(|c| r * 5 + c).collect()).collect();
    let mut g = grid.clone();
    for _ in 0..4 {
        g = rotate_clockwise(&g);
    }
    assert_eq!(g, grid);
}
