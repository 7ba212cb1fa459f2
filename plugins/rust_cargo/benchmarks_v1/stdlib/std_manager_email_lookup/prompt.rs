use std::collections::HashMap;

/// A staff directory entry.
#[derive(Debug, Clone)]
pub struct Employee {
    pub name: String,
    pub manager_id: Option<u32>,
    pub email: Option<String>,
}

/// Returns the email address of the manager of employee `id`. Returns `None`
/// if the employee is unknown, has no manager, the manager is not in the
/// directory, or the manager has no email address.
pub fn manager_email(staff: &HashMap<u32, Employee>, id: u32) -> Option<&str> {
    staff
        .get(&id)
