// Task: an HR tool models the org chart as shared employee nodes: a manager
// holds its direct reports, and reports can still be added to an employee
// after it has been placed in the chart. The file does not compile. Fix it and
// return the whole corrected file.
use std::rc::Rc;

#[derive(Debug)]
pub struct Employee {
    pub name: String,
    reports: Vec<Rc<Employee>>,
}

impl Employee {
    pub fn new(name: &str) -> Rc<Employee> {
        Rc::new(Employee { name: name.to_string(), reports: Vec::new() })
    }
}

/// Makes `report` a direct report of `manager`.
pub fn add_report(manager: &Rc<Employee>, report: &Rc<Employee>) {
    manager.reports.push(Rc::clone(report));
}

/// The number of people below `manager`, directly or indirectly.
pub fn headcount(manager: &Employee) -> usize {
    manager.reports.iter().map(|r| 1 + headcount(r)).sum()
}

/// The names of everybody below `manager`, depth first, each report before
/// its own reports, in the order the reports were added.
pub fn names_below(manager: &Employee) -> Vec<String> {
    let mut out = Vec::new();
    for report in manager.reports.iter() {
        out.push(report.name.clone());
        out.extend(names_below(report));
    }
    out
}
