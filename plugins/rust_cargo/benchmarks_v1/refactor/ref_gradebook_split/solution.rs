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

pub fn weighted_score(s: &Student) -> f64 {
    s.homework * 0.3 + s.midterm * 0.3 + s.final_exam * 0.4
}

pub fn letter_for(score: f64) -> char {
    if score >= 90.0 {
        'A'
    } else if score >= 80.0 {
        'B'
    } else if score >= 70.0 {
        'C'
    } else if score >= 60.0 {
        'D'
    } else {
        'F'
    }
}

pub fn report_row(s: &Student) -> String {
    let score = weighted_score(s);
    format!("{}: {:.1} {}", s.name, score, letter_for(score))
}

/// One row per student, best score first (ties keep the input order), then
/// a last line "class average: X" with one decimal place.
pub fn grade_report(students: &[Student]) -> String {
    let mut ranked: Vec<&Student> = students.iter().collect();
    ranked.sort_by(|a, b| weighted_score(b).partial_cmp(&weighted_score(a)).unwrap());
    let mut out = String::new();
    for s in ranked {
        out.push_str(&report_row(s));
        out.push('\n');
    }
    let sum: f64 = students.iter().map(weighted_score).sum();
    let avg = if students.is_empty() { 0.0 } else { sum / students.len() as f64 };
    out.push_str(&format!("class average: {:.1}\n", avg));
    out
}
