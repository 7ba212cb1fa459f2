use super::*;

fn directory() -> HashMap<u32, Employee> {
    let mut staff = HashMap::new();
    let mut add = |id: u32, name: &str, manager_id: Option<u32>, email: Option<&str>| {
        staff.insert(id, Employee { name: name.to_string(), manager_id, email: email.map(str::to_string) });
    };
    add(1, "ceo", None, Some("ceo@corp.example"));
    add(2, "cto", Some(1), None);
    add(3, "dev", Some(2), Some("dev@corp.example"));
    add(4, "intern", Some(3), None);
    add(5, "contractor", Some(99), Some("c@ext.example"));
    staff
}

#[test]
fn manager_with_email() {
    let staff = directory();
    assert_eq!(manager_email(&staff, 2), Some("ceo@corp.example"));
    assert_eq!(manager_email(&staff, 4), Some("dev@corp.example"));
}

#[test]
fn manager_without_email() {
    assert_eq!(manager_email(&directory(), 3), None);
}

#[test]
fn no_manager_or_unknown_people() {
    let staff = directory();
    assert_eq!(manager_email(&staff, 1), None);
    assert_eq!(manager_email(&staff, 5), None);
    assert_eq!(manager_email(&staff, 42), None);
}
