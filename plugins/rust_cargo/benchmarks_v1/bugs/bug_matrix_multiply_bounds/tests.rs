use super::*;

fn m(rows: &[&[i64]]) -> Matrix {
    Matrix::from_rows(&rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>()).unwrap()
}

#[test]
fn square_product() {
    let a = m(&[&[1, 2], &[3, 4]]);
    let b = m(&[&[5, 6], &[7, 8]]);
    assert_eq!(a.multiply(&b), Some(m(&[&[19, 22], &[43, 50]])));
}

#[test]
fn wide_times_tall() {
    let a = m(&[&[1, 2, 3], &[4, 5, 6]]);
    let b = m(&[&[7], &[8], &[9]]);
    let p = a.multiply(&b).unwrap();
    assert_eq!((p.rows(), p.cols()), (2, 1));
    assert_eq!(p, m(&[&[50], &[122]]));
}

#[test]
fn tall_times_wide() {
    let a = m(&[&[1], &[2], &[3]]);
    let b = m(&[&[4, 5, 6]]);
    assert_eq!(a.multiply(&b), Some(m(&[&[4, 5, 6], &[8, 10, 12], &[12, 15, 18]])));
}

#[test]
fn mismatched_shapes_give_none() {
    let a = m(&[&[1, 2, 3]]);
    assert_eq!(a.multiply(&a), None);
    assert!(Matrix::from_rows(&[vec![1, 2], vec![3]]).is_none());
}
