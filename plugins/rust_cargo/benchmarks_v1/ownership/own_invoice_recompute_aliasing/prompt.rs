// Task: `Invoice` keeps running totals and an audit log that `recompute`
// rebuilds from the invoice lines, as the doc comments say. The file does not
// compile. Fix it and return the whole corrected file.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub description: String,
    pub cents: u64,
    /// Tax rate in percent.
    pub tax_percent: u64,
}

#[derive(Debug, Default)]
pub struct Invoice {
    lines: Vec<Line>,
    subtotal: u64,
    tax: u64,
    log: Vec<String>,
}

impl Invoice {
    pub fn new() -> Invoice {
        Invoice::default()
    }

    pub fn add_line(&mut self, description: &str, cents: u64, tax_percent: u64) {
        self.lines.push(Line { description: description.to_string(), cents, tax_percent });
    }

    /// Adds one line to the totals and the log. The tax of a line is rounded
    /// down to whole cents.
    fn record(&mut self, line: &Line) {
        let tax = line.cents * line.tax_percent / 100;
        self.subtotal += line.cents;
        self.tax += tax;
        self.log.push(format!("{}: {} + {}", line.description, line.cents, tax));
    }

    /// Rebuilds the totals and the log from all lines, in line order.
    pub fn recompute(&mut self) {
        self.subtotal = 0;
        self.tax = 0;
        self.log.clear();
        for line in &self.lines {
            self.record(line);
        }
    }

    /// (subtotal, tax, total) as of the last recompute.
    pub fn totals(&self) -> (u64, u64, u64) {
        (self.subtotal, self.tax, self.subtotal + self.tax)
    }

    pub fn log(&self) -> &[String] {
        &self.log
    }

    pub fn line_count(&self) -> usize {
        self.lines.len()
    }
}
