#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    TooShort { min: usize, actual: usize },
    MissingDigit,
    MissingUppercase,
    MissingSymbol,
    /// The character that appears more than the allowed times in a row.
    Repeated(char),
}

pub trait Rule {
    /// Every violation of this rule by `password`, in a fixed order.
    fn check(&self, password: &str) -> Vec<Violation>;
}
