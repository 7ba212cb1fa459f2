use super::*;

#[test]
fn direct_reports() {
    let ceo = Employee::new("Ines");
    add_report(&ceo, &Employee::new("Joe"));
    add_report(&ceo, &Employee::new("Kai"));
    assert_eq!(headcount(&ceo), 2);
    assert_eq!(names_below(&ceo), vec!["Joe", "Kai"]);
}

#[test]
fn reports_added_after_linking_are_seen() {
    let ceo = Employee::new("Ines");
    let cto = Employee::new("Lea");
    add_report(&ceo, &cto);
    add_report(&cto, &Employee::new("Max"));
    add_report(&cto, &Employee::new("Nia"));
    add_report(&ceo, &Employee::new("Oto"));
    assert_eq!(headcount(&ceo), 4);
    assert_eq!(names_below(&ceo), vec!["Lea", "Max", "Nia", "Oto"]);
}

#[test]
fn shared_node_under_two_managers() {
    let a = Employee::new("A");
    let b = Employee::new("B");
    let shared = Employee::new("S");
    add_report(&a, &shared);
    add_report(&b, &shared);
    add_report(&shared, &Employee::new("T"));
    assert_eq!(names_below(&a), vec!["S", "T"]);
    assert_eq!(names_below(&b), vec!["S", "T"]);
    assert_eq!(Rc::strong_count(&shared), 3);
}

#[test]
fn nobody_below() {
    assert_eq!(headcount(&Employee::new("solo")), 0);
    assert!(names_below(&Employee::new("solo")).is_empty());
}
