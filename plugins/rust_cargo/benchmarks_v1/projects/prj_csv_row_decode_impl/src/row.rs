#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowError {
    FieldCount { expected: usize, found: usize },
    Empty(&'static str),
    Number { field: &'static str, value: String },
    Unknown { field: &'static str, value: String },
}

pub trait FromRow: Sized {
    /// Builds a value from the already split and trimmed fields of one row.
    fn from_row(fields: &[&str]) -> Result<Self, RowError>;
}

pub fn expect_fields(fields: &[&str], expected: usize) -> Result<(), RowError> {
    if fields.len() == expected {
        Ok(())
    } else {
        Err(RowError::FieldCount { expected, found: fields.len() })
    }
}

pub fn non_empty(field: &'static str, value: &str) -> Result<String, RowError> {
    if value.is_empty() {
        Err(RowError::Empty(field))
    } else {
        Ok(value.to_string())
    }
}

pub fn number<T: std::str::FromStr>(field: &'static str, value: &str) -> Result<T, RowError> {
    value.parse().map_err(|_| RowError::Number { field, value: value.to_string() })
}
