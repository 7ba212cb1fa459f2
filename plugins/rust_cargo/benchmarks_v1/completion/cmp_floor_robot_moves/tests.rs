use super::*;

fn floor_with_center_shelf() -> Floor {
    Floor {
        width: 3,
        height: 3,
        blocked: vec![false, false, false, false, true, false, false, false, false],
    }
}

#[test]
fn corner_has_two_moves() {
    assert_eq!(floor_with_center_shelf().moves(0, 0), vec![(1, 0), (0, 1)]);
    assert_eq!(floor_with_center_shelf().moves(2, 2), vec![(2, 1), (1, 2)]);
}

#[test]
fn shelves_are_avoided() {
    assert_eq!(floor_with_center_shelf().moves(1, 0), vec![(2, 0), (0, 0)]);
    assert_eq!(floor_with_center_shelf().moves(0, 1), vec![(0, 0), (0, 2)]);
}

#[test]
fn open_floor_has_all_four_in_order() {
    let floor = Floor { width: 3, height: 3, blocked: vec![false; 9] };
    assert_eq!(floor.moves(1, 1), vec![(1, 0), (2, 1), (1, 2), (0, 1)]);
}

#[test]
fn single_cell_floor_has_no_moves() {
    let floor = Floor { width: 1, height: 1, blocked: vec![false] };
    assert!(floor.moves(0, 0).is_empty());
}

#[test]
fn wide_floor_edges() {
    let floor = Floor { width: 4, height: 2, blocked: vec![false, false, true, false, false, false, false, false] };
    assert_eq!(floor.moves(3, 0), vec![(3, 1)]);
    assert_eq!(floor.moves(2, 1), vec![(3, 1), (1, 1)]);
}
