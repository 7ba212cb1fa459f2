use crate::employee::{Department, Employee};
use crate::reader::read_all;
use crate::row::{FromRow, RowError};

#[test]
fn decodes_a_valid_row() {
    assert_eq!(
        Employee::from_row(&["17", "Lena Park", "eng", "72000"]),
        Ok(Employee { id: 17, name: "Lena Park".to_string(), department: Department::Engineering, salary: 72_000 })
    );
}

#[test]
fn field_count_is_checked_first() {
    assert_eq!(Employee::from_row(&["x", "", "hr"]), Err(RowError::FieldCount { expected: 4, found: 3 }));
}

#[test]
fn fields_checked_left_to_right() {
    assert_eq!(Employee::from_row(&["a1", "", "hr", "x"]), Err(RowError::Number { field: "id", value: "a1".to_string() }));
    assert_eq!(Employee::from_row(&["1", "", "hr", "x"]), Err(RowError::Empty("name")));
    assert_eq!(Employee::from_row(&["1", "Bo", "hr", "x"]), Err(RowError::Unknown { field: "department", value: "hr".to_string() }));
    assert_eq!(Employee::from_row(&["1", "Bo", "ops", "-5"]), Err(RowError::Number { field: "salary", value: "-5".to_string() }));
}

#[test]
fn reader_collects_rows_and_errors() {
    let csv = "id,name,dept,salary\n1, Ana ,sales,50000\n\n2,Raj,legal,1\n3,Kim,ops,61000\n";
    let (rows, errors): (Vec<Employee>, _) = read_all(csv);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].name, "Ana");
    assert_eq!(rows[1].department, Department::Operations);
    assert_eq!(errors, vec![(4, RowError::Unknown { field: "department", value: "legal".to_string() })]);
}
