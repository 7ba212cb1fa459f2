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

pub fn sales_report(csv: &str) -> String {
    let mut totals: BTreeMap<String, u64> = BTreeMap::new();
    let mut skipped = 0;
    for line in csv.lines().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(|f| f.trim()).collect();
        if fields.len() != 4 || fields[0].is_empty() {
            skipped += 1;
            continue;
        }
        let units: u32 = match fields[2].parse() {
            Ok(u) => u,
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        let cents: u64 = match fields[3].parse() {
            Ok(c) => c,
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        *totals.entry(fields[0].to_string()).or_insert(0) += units as u64 * cents;
    }
    let mut out = String::new();
    for (region, cents) in &totals {
        out.push_str(&format!("{}: {}.{:02}\n", region, cents / 100, cents % 100));
    }
    out.push_str(&format!("skipped: {}\n", skipped));
    out
}
