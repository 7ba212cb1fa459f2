use super::*;

#[test]
fn spending_reduces_the_company_budget() {
    let company = Company::new(1_000);
    let mut sales = company.department("sales");
    assert!(sales.spend(300));
    assert_eq!(sales.spent(), 300);
    assert_eq!(company.remaining(), 700);
}

#[test]
fn departments_compete_for_one_budget() {
    let company = Company::new(1_000);
    let mut sales = company.department("sales");
    let mut labs = company.department("labs");
    assert!(labs.spend(800));
    assert!(!sales.spend(300));
    assert!(sales.spend(200));
    assert!(!labs.spend(1));
    assert_eq!((sales.spent(), labs.spent()), (200, 800));
    assert_eq!(company.remaining(), 0);
}

#[test]
fn department_created_later_sees_what_is_left() {
    let company = Company::new(500);
    let mut a = company.department("a");
    a.spend(450);
    let mut b = company.department("b");
    assert!(!b.spend(100));
    assert!(b.spend(50));
    assert_eq!(b.name, "b");
}
