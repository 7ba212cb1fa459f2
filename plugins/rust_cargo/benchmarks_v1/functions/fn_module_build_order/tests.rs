use super::*;

#[test]
fn no_modules() {
    assert_eq!(build_order(0, &[]), Some(vec![]));
}

#[test]
fn independent_modules_in_numeric_order() {
    assert_eq!(build_order(4, &[]), Some(vec![0, 1, 2, 3]));
}

#[test]
fn dependencies_come_first() {
    assert_eq!(build_order(4, &[(0, 2), (1, 2), (2, 3)]), Some(vec![3, 2, 0, 1]));
}

#[test]
fn smallest_ready_module_is_built_next() {
    assert_eq!(build_order(4, &[(0, 3)]), Some(vec![1, 2, 3, 0]));
    assert_eq!(build_order(5, &[(1, 4), (0, 4), (2, 0)]), Some(vec![3, 4, 0, 1, 2]));
}

#[test]
fn duplicate_edges_are_harmless() {
    assert_eq!(build_order(2, &[(0, 1), (0, 1)]), Some(vec![1, 0]));
}

#[test]
fn cycles_and_bad_numbers_fail() {
    assert_eq!(build_order(3, &[(0, 1), (1, 2), (2, 0)]), None);
    assert_eq!(build_order(2, &[(1, 1)]), None);
    assert_eq!(build_order(2, &[(0, 2)]), None);
    assert_eq!(build_order(2, &[(5, 0)]), None);
}
