use super::*;

#[test]
fn empty_columns() {
    assert!(payslip_lines(&[], &[], &[]).is_empty());
}

#[test]
fn formats_amounts_with_two_decimals() {
    assert_eq!(
        payslip_lines(&["Ana", "Ben"], &[40, 3], &[1250, 1005]),
        vec!["Ana: 40h x 12.50 = 500.00", "Ben: 3h x 10.05 = 30.15"]
    );
}

#[test]
fn small_amounts_are_padded() {
    assert_eq!(payslip_lines(&["Cy"], &[1], &[7]), vec!["Cy: 1h x 0.07 = 0.07"]);
    assert_eq!(payslip_lines(&["Di"], &[0], &[900]), vec!["Di: 0h x 9.00 = 0.00"]);
}

#[test]
fn shortest_column_wins() {
    assert_eq!(payslip_lines(&["A", "B", "C"], &[1, 2], &[100, 100, 100]).len(), 2);
    assert_eq!(payslip_lines(&["A", "B"], &[1, 2, 3], &[100]), vec!["A: 1h x 1.00 = 1.00"]);
}

#[test]
fn large_values_do_not_overflow() {
    assert_eq!(payslip_lines(&["Max"], &[u32::MAX], &[100]), vec![format!("Max: {}h x 1.00 = {}.00", u32::MAX, u32::MAX)]);
}
