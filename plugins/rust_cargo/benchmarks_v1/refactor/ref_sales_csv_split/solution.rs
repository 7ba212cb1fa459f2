// Task: split `sales_report` into three public functions and make it call them:
//   pub fn parse_sale(line: &str) -> Option<Sale>
//       one "region,product,units,unit_cents" line; None if malformed
//   pub fn revenue_by_region(sales: &[Sale]) -> Vec<(String, u64)>
//       revenue in cents per region, sorted by region name
//   pub fn format_report(totals: &[(String, u64)], skipped: usize) -> String
// and add the struct `Sale { region: String, product: String, units: u32,
// unit_cents: u64 }` (derive Debug, Clone, PartialEq). The output of
// `sales_report` must stay exactly the same.
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub struct Sale {
    pub region: String,
    pub product: String,
    pub units: u32,
    pub unit_cents: u64,
}

/// Parses one "region,product,units,unit_cents" line.
pub fn parse_sale(line: &str) -> Option<Sale> {
    let fields: Vec<&str> = line.split(',').map(|f| f.trim()).collect();
    if fields.len() != 4 || fields[0].is_empty() {
        return None;
    }
    Some(Sale {
        region: fields[0].to_string(),
        product: fields[1].to_string(),
        units: fields[2].parse().ok()?,
        unit_cents: fields[3].parse().ok()?,
    })
}

/// Revenue in cents per region, sorted by region name.
pub fn revenue_by_region(sales: &[Sale]) -> Vec<(String, u64)> {
    let mut totals: BTreeMap<&str, u64> = BTreeMap::new();
    for sale in sales {
        *totals.entry(&sale.region).or_insert(0) += u64::from(sale.units) * sale.unit_cents;
    }
    totals.into_iter().map(|(region, cents)| (region.to_string(), cents)).collect()
}

pub fn format_report(totals: &[(String, u64)], skipped: usize) -> String {
    let mut out = String::new();
    for (region, cents) in totals {
        out.push_str(&format!("{}: {}.{:02}\n", region, cents / 100, cents % 100));
    }
    out.push_str(&format!("skipped: {}\n", skipped));
    out
}

pub fn sales_report(csv: &str) -> String {
    let mut sales = Vec::new();
    let mut skipped = 0;
    for line in csv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        match parse_sale(line) {
            Some(sale) => sales.push(sale),
            None => skipped += 1,
        }
    }
    format_report(&revenue_by_region(&sales), skipped)
}
