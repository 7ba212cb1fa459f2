/// One line of a shopping cart.
#[derive(Debug, Clone)]
pub struct CartLine {
    pub name: String,
    pub unit_cents: u64,
    pub quantity: u32,
    /// Percentage discount (0 to 100) on this line's total.
    pub discount_pct: u8,
}

/// The cart total in cents. Each line costs `unit_cents * quantity` minus its
/// discount; the discount is computed on the line total and rounded down to
/// the cent.
pub fn cart_total(lines: &[CartLine]) -> u64 {
    lines
        .iter()
