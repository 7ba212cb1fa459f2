// Task: implement `sort_rows(table: &mut Table, keys: &[(&str, Direction)])
// -> Result<(), SortError>`. Rows are ordered by the first key's column, ties
// broken by the next key, and so on, comparing cells with `Cell::compare`
// (reversed for Descending). Rows equal on every key keep their relative
// order. If a key names a column the table lacks, return
// `SortError::UnknownColumn(name)` for the first such key and leave the table
// untouched.
use crate::table::Table;
use std::cmp::Ordering;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Ascending,
    Descending,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortError {
    UnknownColumn(String),
}

pub fn sort_rows(table: &mut Table, keys: &[(&str, Direction)]) -> Result<(), SortError> {
    let resolved = keys
        .iter()
        .map(|&(name, dir)| {
            table.column_index(name).map(|i| (i, dir)).ok_or_else(|| SortError::UnknownColumn(name.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    table.rows.sort_by(|a, b| {
        for &(i, dir) in &resolved {
            let ord = a[i].compare(&b[i]);
            let ord = match dir {
                Direction::Ascending => ord,
                Direction::Descending => ord.reverse(),
            };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    });
    Ok(())
}
