/// A cart line as discounts see it.
#[derive(Debug, Clone, PartialEq)]
pub struct LineView<'a> {
    pub sku: &'a str,
    pub quantity: u32,
    pub unit_cents: u64,
}

pub trait Discount {
    fn name(&self) -> &str;
    /// How many cents this discount takes off the given lines.
    fn savings(&self, lines: &[LineView<'_>]) -> u64;
}

/// A percentage off the whole order, rounded down.
pub struct PercentOff {
    pub percent: u64,
}

impl Discount for PercentOff {
    fn name(&self) -> &str {
        "percent"
    }

    fn savings(&self, lines: &[LineView<'_>]) -> u64 {
        let total: u64 = lines.iter().map(|l| u64::from(l.quantity) * l.unit_cents).sum();
        total * self.percent / 100
    }
}

/// Every `n`-th unit of the given SKU is free.
pub struct NthFree {
    pub sku: String,
    pub n: u32,
}

impl Discount for NthFree {
    fn name(&self) -> &str {
        "nth_free"
    }

    fn savings(&self, lines: &[LineView<'_>]) -> u64 {
        if self.n == 0 {
            return 0;
        }
        lines
            .iter()
            .filter(|l| l.sku == self.sku)
            .map(|l| u64::from(l.quantity / self.n) * l.unit_cents)
            .sum()
    }
}
