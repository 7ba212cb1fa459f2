use super::*;

fn grid() -> Grid {
    Grid::new(3, vec![1.0, 5.0, -2.0, 4.0, 0.5, -1.0])
}

#[test]
fn row_returns_a_slice() {
    let g = grid();
    assert_eq!(g.row(0), &[1.0, 5.0, -2.0][..]);
    assert_eq!(g.row(1), &[4.0, 0.5, -1.0][..]);
}

#[test]
#[should_panic]
fn row_out_of_range_panics() {
    grid().row(2);
}

#[test]
fn rows_iterates_in_order() {
    let g = grid();
    let mut it = g.rows();
    assert_eq!(it.next().map(|r| r.len()), Some(3));
    assert_eq!(it.next(), Some(&[4.0, 0.5, -1.0][..]));
    assert!(it.next().is_none());
}

#[test]
fn sums_and_maxima_are_unchanged() {
    let g = grid();
    assert_eq!(g.row_sums(), vec![4.0, 3.5]);
    assert_eq!(g.column_max(), vec![4.0, 5.0, -1.0]);
}

#[test]
fn empty_grid() {
    let g = Grid::new(2, Vec::new());
    assert_eq!(g.rows().count(), 0);
    assert!(g.row_sums().is_empty());
    assert!(g.column_max().is_empty());
}
