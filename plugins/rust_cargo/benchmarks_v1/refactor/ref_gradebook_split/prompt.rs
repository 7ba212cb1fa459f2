// Task: split `grade_report` into three public functions and use them:
//   pub fn weighted_score(s: &Student) -> f64
//       homework 30%, midterm 30%, final 40% (each score out of 100)
//   pub fn letter_for(score: f64) -> char
//       A from 90, B from 80, C from 70, D from 60, otherwise F
//   pub fn report_row(s: &Student) -> String
//       "name: score letter" with the score to one decimal place
// The report text must stay exactly the same.

pub struct Student {
    pub name: String,
    pub homework: f64,
    pub midterm: f64,
    pub final_exam: f64,
}

/// One row per student, best score first (ties keep the input order), then
/// a last line "class average: X" with one decimal place.
pub fn grade_report(students: &[Student]) -> String {
    let mut rows: Vec<(f64, String)> = Vec::new();
    let mut sum = 0.0;
    for s in students {
        let score = s.homework * 0.3 + s.midterm * 0.3 + s.final_exam * 0.4;
        sum += score;
        let letter = if score >= 90.0 {
            'A'
        } else if score >= 80.0 {
            'B'
        } else if score >= 70.0 {
            'C'
        } else if score >= 60.0 {
            'D'
        } else {
            'F'
        };
        rows.push((score, format!("{}: {:.1} {}", s.name, score, letter)));
    }
    rows.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    let mut out = String::new();
    for (_, row) in rows {
        out.push_str(&row);
        out.push('\n');
    }
    let avg = if students.is_empty() { 0.0 } else { sum / students.len() as f64 };
    out.push_str(&format!("class average: {:.1}\n", avg));
    out
}
