use super::*;

fn m(rows: usize, cols: usize, data: &[f64]) -> Matrix {
    Matrix { rows, cols, data: data.to_vec() }
}

#[test]
fn transposes_a_rectangular_matrix() {
    let a = m(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(a.transpose(), m(3, 2, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]));
}

#[test]
fn a_row_becomes_a_column() {
    assert_eq!(m(1, 3, &[7.0, 8.0, 9.0]).transpose(), m(3, 1, &[7.0, 8.0, 9.0]));
}

#[test]
fn empty_matrices_swap_their_shape() {
    assert_eq!(m(0, 0, &[]).transpose(), m(0, 0, &[]));
    assert_eq!(m(0, 4, &[]).transpose(), m(4, 0, &[]));
}

#[test]
fn transposing_twice_gives_the_original() {
    let a = m(3, 2, &[1.5, -2.0, 0.0, 4.25, 9.0, 3.0]);
    assert_eq!(a.transpose().transpose(), a);
    assert_eq!(a.transpose().get(1, 2), 3.0);
}
