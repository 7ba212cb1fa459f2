use super::*;

#[test]
fn splits_regular_and_overtime() {
    assert_eq!(regular_and_overtime(0), (0, 0));
    assert_eq!(regular_and_overtime(2400), (2400, 0));
    assert_eq!(regular_and_overtime(2530), (2400, 130));
}

#[test]
fn gross_pay_with_overtime() {
    assert_eq!(gross_pay(600, 2_000), 20_000);
    // 40h regular at 20.00 = 800.00, 2h overtime at 30.00 = 60.00
    assert_eq!(gross_pay(2520, 2_000), 86_000);
    assert_eq!(gross_pay(1, 1_999), 33);
}

#[test]
fn withholding_bands() {
    assert_eq!(withholding(0), 0);
    assert_eq!(withholding(50_000), 5_000);
    assert_eq!(withholding(50_009), 5_001);
    assert_eq!(withholding(86_000), 12_200);
}

#[test]
fn net_pay_is_gross_minus_withholding() {
    assert_eq!(net_pay(2520, 2_000), 73_800);
    assert_eq!(net_pay(0, 5_000), 0);
}

#[test]
fn payslip_text_is_unchanged() {
    assert_eq!(payslip_line("Ines", 2520, 2_000), "Ines: 42h00m gross 860.00 net 738.00");
    assert_eq!(payslip_line("Bo", 95, 1_200), "Bo: 1h35m gross 19.00 net 17.10");
}
