use super::*;

#[test]
fn sums_per_chunk() {
    assert_eq!(parallel_chunk_sums(&[1, 2, 3, 4, 5, 6, 7], 3), vec![6, 15, 7]);
}

#[test]
fn works_on_borrowed_local_data() {
    let readings: Vec<i64> = (1..=100).collect();
    let sums = parallel_chunk_sums(&readings, 4);
    assert_eq!(sums, vec![325, 950, 1_575, 2_200]);
    assert_eq!(sums.iter().sum::<i64>(), 5_050);
}

#[test]
fn more_workers_than_readings() {
    assert_eq!(parallel_chunk_sums(&[5, -3], 8), vec![5, -3]);
}

#[test]
fn degenerate_inputs() {
    assert!(parallel_chunk_sums(&[], 4).is_empty());
    assert!(parallel_chunk_sums(&[1, 2], 0).is_empty());
}
