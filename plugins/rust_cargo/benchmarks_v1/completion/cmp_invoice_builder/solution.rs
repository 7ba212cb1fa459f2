/// A finished invoice; amounts in cents.
#[derive(Debug, Clone, PartialEq)]
pub struct Invoice {
    pub number: String,
    pub customer: String,
    pub lines: Vec<(String, u64)>,
    pub subtotal_cents: u64,
    pub tax_cents: u64,
    pub total_cents: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    MissingNumber,
    MissingCustomer,
    NoLines,
}

#[derive(Debug, Default)]
pub struct InvoiceBuilder {
    number: Option<String>,
    customer: Option<String>,
    lines: Vec<(String, u64)>,
    tax_basis_points: u32,
}

impl InvoiceBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn number(mut self, number: &str) -> Self {
        self.number = Some(number.to_string());
        self
    }

    pub fn customer(mut self, customer: &str) -> Self {
        self.customer = Some(customer.to_string());
        self
    }

    pub fn line(mut self, description: &str, cents: u64) -> Self {
        self.lines.push((description.to_string(), cents));
        self
    }

    /// The tax rate in basis points (2000 = 20%); 0 by default.
    pub fn tax_basis_points(mut self, basis_points: u32) -> Self {
        self.tax_basis_points = basis_points;
        self
    }

    /// Builds the invoice. The errors are checked in the order number,
    /// customer, lines. The subtotal is the sum of the lines; the tax is
    /// `subtotal * basis_points / 10_000` rounded half up to the cent; the
    /// total is subtotal plus tax.
    pub fn build(self) -> Result<Invoice, BuildError> {
        let number = self.number.ok_or(BuildError::MissingNumber)?;
        let customer = self.customer.ok_or(BuildError::MissingCustomer)?;
        if self.lines.is_empty() {
            return Err(BuildError::NoLines);
        }
        let subtotal_cents: u64 = self.lines.iter().map(|(_, cents)| cents).sum();
        let tax_cents = (subtotal_cents * u64::from(self.tax_basis_points) + 5_000) / 10_000;
        Ok(Invoice {
            number,
            customer,
            lines: self.lines,
            subtotal_cents,
            tax_cents,
            total_cents: subtotal_cents + tax_cents,
        })
    }
}
