// Task: implement `crate::row::FromRow` for `Employee`, using the helpers in
// `crate::row`. A row has exactly 4 fields: id (u32), name (non-empty),
// department ("eng", "sales" or "ops", otherwise
// `RowError::Unknown { field: "department", .. }`) and salary (u32, whole
// euros). Check the field count first, then the fields from left to right;
// the field names used in errors are "id", "name", "department", "salary".
use crate::row::{expect_fields, non_empty, number, FromRow, RowError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Department {
    Engineering,
    Sales,
    Operations,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Employee {
    pub id: u32,
    pub name: String,
    pub department: Department,
    pub salary: u32,
}

fn department(value: &str) -> Result<Department, RowError> {
    match value {
        "eng" => Ok(Department::Engineering),
        "sales" => Ok(Department::Sales),
        "ops" => Ok(Department::Operations),
        other => Err(RowError::Unknown { field: "department", value: other.to_string() }),
    }
}

impl FromRow for Employee {
    fn from_row(fields: &[&str]) -> Result<Self, RowError> {
        expect_fields(fields, 4)?;
        Ok(Employee {
            id: number("id", fields[0])?,
            name: non_empty("name", fields[1])?,
            department: department(fields[2])?,
            salary: number("salary", fields[3])?,
        })
    }
}
