/// Builds payslip lines from three parallel columns of a payroll sheet: the
/// employee names, the hours worked and the hourly rates in cents.
///
/// Each line reads `"<name>: <hours>h x <rate> = <total>"`, where rate and
/// total are in currency units with exactly two decimals (`1250` cents is
/// `12.50`). If the columns differ in length, the extra entries are ignored.
pub fn payslip_lines(names: &[&str], hours: &[u32], rates_cents: &[u64]) -> Vec<String> {
    names
        .iter()
