use super::*;

fn st(name: &str, h: f64, m: f64, f: f64) -> Student {
    Student { name: name.to_string(), homework: h, midterm: m, final_exam: f }
}

#[test]
fn weighted_score_uses_the_weights() {
    assert!((weighted_score(&st("a", 100.0, 0.0, 0.0)) - 30.0).abs() < 1e-9);
    assert!((weighted_score(&st("a", 80.0, 70.0, 90.0)) - 81.0).abs() < 1e-9);
}

#[test]
fn letter_boundaries() {
    assert_eq!(letter_for(90.0), 'A');
    assert_eq!(letter_for(89.99), 'B');
    assert_eq!(letter_for(70.0), 'C');
    assert_eq!(letter_for(60.0), 'D');
    assert_eq!(letter_for(59.9), 'F');
}

#[test]
fn report_row_format() {
    assert_eq!(report_row(&st("Mara", 80.0, 70.0, 90.0)), "Mara: 81.0 B");
    assert_eq!(report_row(&st("Ole", 50.0, 50.0, 52.0)), "Ole: 50.8 F");
}

#[test]
fn report_is_unchanged() {
    let students = vec![st("Ole", 50.0, 50.0, 52.0), st("Mara", 80.0, 70.0, 90.0), st("Kai", 100.0, 95.0, 90.0), st("Ada", 90.0, 60.0, 88.0)];
    assert_eq!(
        grade_report(&students),
        "Kai: 94.5 A\nMara: 81.0 B\nAda: 80.2 B\nOle: 50.8 F\nclass average: 76.6\n"
    );
    assert_eq!(grade_report(&[]), "class average: 0.0\n");
}
