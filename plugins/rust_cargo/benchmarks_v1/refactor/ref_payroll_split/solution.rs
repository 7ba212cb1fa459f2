// Task: `payslip_line` does everything at once. Split it into
//   pub fn regular_and_overtime(minutes: u32) -> (u32, u32)
//       minutes up to 40 hours are regular, the rest overtime
//   pub fn gross_pay(minutes: u32, cents_per_hour: u64) -> u64
//   pub fn withholding(gross: u64) -> u64
//   pub fn net_pay(minutes: u32, cents_per_hour: u64) -> u64
// and make `payslip_line` call them. All amounts and the text stay the same.

const REGULAR_LIMIT_MINUTES: u32 = 40 * 60;
const LOWER_BAND_CENTS: u64 = 50_000;

/// Minutes up to 40 hours are regular, the rest overtime.
pub fn regular_and_overtime(minutes: u32) -> (u32, u32) {
    let regular = minutes.min(REGULAR_LIMIT_MINUTES);
    (regular, minutes - regular)
}

/// Overtime pays 1.5x; pay is computed per minute and rounded down.
pub fn gross_pay(minutes: u32, cents_per_hour: u64) -> u64 {
    let (regular, overtime) = regular_and_overtime(minutes);
    (u64::from(regular) * cents_per_hour + u64::from(overtime) * cents_per_hour * 3 / 2) / 60
}

/// 10% of the first 500.00, 20% of the rest, rounded down.
pub fn withholding(gross: u64) -> u64 {
    if gross <= LOWER_BAND_CENTS {
        gross / 10
    } else {
        LOWER_BAND_CENTS / 10 + (gross - LOWER_BAND_CENTS) / 5
    }
}

pub fn net_pay(minutes: u32, cents_per_hour: u64) -> u64 {
    let gross = gross_pay(minutes, cents_per_hour);
    gross - withholding(gross)
}

pub fn payslip_line(name: &str, minutes: u32, cents_per_hour: u64) -> String {
    let gross = gross_pay(minutes, cents_per_hour);
    let net = net_pay(minutes, cents_per_hour);
    format!(
        "{}: {}h{:02}m gross {}.{:02} net {}.{:02}",
        name,
        minutes / 60,
        minutes % 60,
        gross / 100,
        gross % 100,
        net / 100,
        net % 100
    )
}
