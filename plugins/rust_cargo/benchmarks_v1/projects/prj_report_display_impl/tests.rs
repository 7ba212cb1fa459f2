use crate::report::Report;

fn report() -> Report {
    Report {
        title: "March".to_string(),
        rows: vec![("Engineering".to_string(), 12, 98_000), ("Ops".to_string(), 3, 7_500)],
    }
}

#[test]
fn renders_aligned_table() {
    let expected = "March\n\
Department   Staff   Spend\n\
--------------------------\n\
Engineering     12   98000\n\
Ops              3    7500\n\
TOTAL           15  105500\n";
    assert_eq!(report().to_string(), expected);
}

#[test]
fn header_sets_minimum_widths() {
    let r = Report { title: "Q".to_string(), rows: vec![("HR".to_string(), 1, 2)] };
    assert_eq!(r.to_string(), "Q\nDepartment  Staff  Spend\n------------------------\nHR              1      2\nTOTAL           1      2\n");
}

#[test]
fn widths_count_characters() {
    let r = Report { title: "T".to_string(), rows: vec![("Überseeabteilung".to_string(), 2, 10)] };
    let text = r.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[3], "Überseeabteilung      2     10");
    assert_eq!(lines[2].len(), 30);
    assert!(lines.iter().all(|l| !l.ends_with(' ')));
}

#[test]
fn empty_report_has_totals() {
    let r = Report { title: "Empty".to_string(), rows: vec![] };
    assert_eq!(r.to_string(), "Empty\nDepartment  Staff  Spend\n------------------------\nTOTAL           0      0\n");
}
