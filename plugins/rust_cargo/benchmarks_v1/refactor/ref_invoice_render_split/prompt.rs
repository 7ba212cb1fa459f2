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

/// Renders an invoice: one row per line, then subtotal, discount, tax, total.
/// Orders of 100.00 or more get 5% off (rounded down to a cent);
/// tax is 8% of the discounted amount, rounded half up to a cent.
pub fn render_invoice(lines: &[Line]) -> String {
    let mut out = String::new();
    let mut subtotal = 0u64;
    for line in lines {
        let total = line.quantity as u64 * line.unit_cents;
        subtotal += total;
        out.push_str(&format!(
            "{} x{} {}.{:02}\n",
            line.description,
            line.quantity,
            total / 100,
            total % 100
        ));
    }
    let discount = if subtotal >= 10_000 { subtotal * 5 / 100 } else { 0 };
    let taxable = subtotal - discount;
    let tax = (taxable * 8 + 50) / 100;
    let total = taxable + tax;
    out.push_str(&format!("subtotal {}.{:02}\n", subtotal / 100, subtotal % 100));
    out.push_str(&format!("discount {}.{:02}\n", discount / 100, discount % 100));
    out.push_str(&format!("tax {}.{:02}\n", tax / 100, tax % 100));
    out.push_str(&format!("total {}.{:02}\n", total / 100, total % 100));
    out
}
