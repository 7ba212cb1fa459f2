/// One row of a sales export.
#[derive(Debug, Clone, PartialEq)]
pub struct Sale {
    pub sku: String,
    pub quantity: u32,
    pub unit_price_cents: u64,
}

/// Parses a price written in dollars with exactly two decimals (`"12.50"`).
fn parse_price(field: &str) -> Option<u64> {
    let (dollars, cents) = field.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(dollars) || !digits(cents) || cents.len() != 2 {
        return None;
    }
    Some(dollars.parse::<u64>().ok()? * 100 + cents.parse::<u64>().ok()?)
}

/// Parses lines of the form `sku,quantity,unit_price`. Fields may be surrounded
/// by spaces, the SKU must not be empty, the quantity is a `u32` and the price
/// is parsed with `parse_price`. Blank lines are skipped. The error is the
/// 1-based line number of the first malformed line.
pub fn parse_sales(input: &str) -> Result<Vec<Sale>, usize> {
    input
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            match fields.as_slice() {
                [sku, qty, price] if !sku.is_empty() => {
                    let quantity = qty.parse().map_err(|_| i + 1)?;
                    let unit_price_cents = parse_price(price).ok_or(i + 1)?;
                    Ok(Sale { sku: sku.to_string(), quantity, unit_price_cents })
                }
                _ => Err(i + 1),
            }
        })
        .collect()
}
