use super::*;

#[test]
fn small_sums_average() {
    assert_eq!(average_humidity(&[40, 50, 61]), Some(50));
}

#[test]
fn large_sums_do_not_overflow() {
    assert_eq!(average_humidity(&[90, 95, 100]), Some(95));
    assert_eq!(summary(&[100, 100, 99, 98]), Some((98, 100, 99)));
}

#[test]
fn many_readings() {
    let readings = vec![57u8; 1_000];
    assert_eq!(average_humidity(&readings), Some(57));
}

#[test]
fn no_readings() {
    assert_eq!(average_humidity(&[]), None);
    assert_eq!(summary(&[]), None);
}
