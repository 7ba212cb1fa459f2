// Task: `payslip_line` does everything at once. Split it into
//   pub fn regular_and_overtime(minutes: u32) -> (u32, u32)
//       minutes up to 40 hours are regular, the rest overtime
//   pub fn gross_pay(minutes: u32, cents_per_hour: u64) -> u64
//   pub fn withholding(gross: u64) -> u64
//   pub fn net_pay(minutes: u32, cents_per_hour: u64) -> u64
// and make `payslip_line` call them. All amounts and the text stay the same.

pub fn payslip_line(name: &str, minutes: u32, cents_per_hour: u64) -> String {
    let limit = 40 * 60;
    let regular = if minutes > limit { limit } else { minutes };
    let overtime = minutes - regular;
    // overtime pays 1.5x; pay is computed per minute and rounded down
    let gross = (regular as u64 * cents_per_hour + overtime as u64 * cents_per_hour * 3 / 2) / 60;
    // 10% of the first 500.00, 20% of the rest, rounded down
    let band = 50_000u64;
    let withheld = if gross <= band {
        gross / 10
    } else {
        band / 10 + (gross - band) / 5
    };
    let net = gross - withheld;
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
