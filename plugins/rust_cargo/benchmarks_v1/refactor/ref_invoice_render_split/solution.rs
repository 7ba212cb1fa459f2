// Task: split `render_invoice` into small helpers and make it call them:
//   pub fn line_total(line: &Line) -> u64            // quantity * unit price, in cents
//   pub fn subtotal(lines: &[Line]) -> u64           // sum of the line totals
//   pub fn bulk_discount(subtotal: u64) -> u64       // the discount in cents
//   pub fn tax(taxable: u64) -> u64                  // the tax in cents
// The rules and the rendered text must stay exactly as they are.

pub struct Line {
    pub description: String,
    pub quantity: u32,
    pub unit_cents: u64,
}

/// Quantity times unit price, in cents.
pub fn line_total(line: &Line) -> u64 {
    u64::from(line.quantity) * line.unit_cents
}

/// Sum of the line totals, in cents.
pub fn subtotal(lines: &[Line]) -> u64 {
    lines.iter().map(line_total).sum()
}

/// Orders of 100.00 or more get 5% off, rounded down to a cent.
pub fn bulk_discount(subtotal: u64) -> u64 {
    if subtotal >= 10_000 {
        subtotal * 5 / 100
    } else {
        0
    }
}

/// 8% of the taxable amount, rounded half up to a cent.
pub fn tax(taxable: u64) -> u64 {
    (taxable * 8 + 50) / 100
}

fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Renders an invoice: one row per line, then subtotal, discount, tax, total.
pub fn render_invoice(lines: &[Line]) -> String {
    let mut out = String::new();
    for line in lines {
        out.push_str(&format!("{} x{} {}\n", line.description, line.quantity, money(line_total(line))));
    }
    let subtotal = subtotal(lines);
    let discount = bulk_discount(subtotal);
    let taxable = subtotal - discount;
    let tax = tax(taxable);
    out.push_str(&format!("subtotal {}\n", money(subtotal)));
    out.push_str(&format!("discount {}\n", money(discount)));
    out.push_str(&format!("tax {}\n", money(tax)));
    out.push_str(&format!("total {}\n", money(taxable + tax)));
    out
}
