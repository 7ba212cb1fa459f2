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
