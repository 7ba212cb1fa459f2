// Task: implement `sort_rows(table: &mut Table, keys: &[(&str, Direction)])
// -> Result<(), SortError>`. Rows are ordered by the first key's column, ties
// broken by the next key, and so on, comparing cells with `Cell::compare`
// (reversed for Descending). Rows equal on every key keep their relative
// order. If a key names a column the table lacks, return
// `SortError::UnknownColumn(name)` for the first such key and leave the table
// untouched.
use crate::table::Table;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Ascending,
    Descending,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortError {
    UnknownColumn(String),
}
