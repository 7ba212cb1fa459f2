// Task: implement `std::fmt::Display` for `crate::report::Report`, using the
// helpers in `crate::layout`. The output is, line by line (each ending in
// '\n'):
//   the title
//   header:   "Department" | "Staff" | "Spend"
//   a rule of '-' as wide as a table row
//   one row per department, in order
//   the totals row with "TOTAL" in the first column
// Columns are separated by two spaces. The first column is left-aligned and
// as wide as its longest entry (header, names and "TOTAL" included, counted
// in characters); the other two are right-aligned and as wide as their
// longest entry (header and total included). No trailing spaces.
use crate::layout::{pad_left, pad_right};
use crate::report::Report;
use std::fmt;

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines: Vec<[String; 3]> = vec![["Department".to_string(), "Staff".to_string(), "Spend".to_string()]];
        for (name, staff, spend) in &self.rows {
            lines.push([name.clone(), staff.to_string(), spend.to_string()]);
        }
        lines.push(["TOTAL".to_string(), self.total_headcount().to_string(), self.total_spend().to_string()]);
        let mut widths = [0usize; 3];
        for line in &lines {
            for (w, cell) in widths.iter_mut().zip(line.iter()) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let render = |cells: &[String; 3]| {
            format!(
                "{}  {}  {}",
                pad_right(&cells[0], widths[0]),
                pad_left(&cells[1], widths[1]),
                pad_left(&cells[2], widths[2])
            )
        };
        writeln!(f, "{}", self.title)?;
        writeln!(f, "{}", render(&lines[0]))?;
        writeln!(f, "{}", "-".repeat(widths[0] + widths[1] + widths[2] + 4))?;
        for line in &lines[1..] {
            writeln!(f, "{}", render(line))?;
        }
        Ok(())
    }
}
