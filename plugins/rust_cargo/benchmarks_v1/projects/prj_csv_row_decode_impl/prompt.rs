// Task: implement `crate::row::FromRow` for `Employee`, using the helpers in
// `crate::row`. A row has exactly 4 fields: id (u32), name (non-empty),
// department ("eng", "sales" or "ops", otherwise
// `RowError::Unknown { field: "department", .. }`) and salary (u32, whole
// euros). Check the field count first, then the fields from left to right;
// the field names used in errors are "id", "name", "department", "salary".

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
