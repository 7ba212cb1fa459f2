use crate::cell::Cell;
use crate::sort::{sort_rows, Direction, SortError};
use crate::table::Table;

fn t(s: &str) -> Cell {
    Cell::Text(s.to_string())
}

fn table() -> Table {
    Table {
        columns: vec!["team".to_string(), "score".to_string(), "name".to_string()],
        rows: vec![
            vec![t("red"), Cell::Int(10), t("ana")],
            vec![t("blue"), Cell::Int(30), t("bo")],
            vec![t("red"), Cell::Int(30), t("cy")],
            vec![t("blue"), Cell::Empty, t("di")],
            vec![t("red"), Cell::Int(10), t("ed")],
        ],
    }
}

fn names(tb: &Table) -> Vec<String> {
    tb.rows.iter().map(|r| match &r[2] { Cell::Text(s) => s.clone(), _ => String::new() }).collect()
}

#[test]
fn single_key_ascending_is_stable() {
    let mut tb = table();
    sort_rows(&mut tb, &[("score", Direction::Ascending)]).unwrap();
    assert_eq!(names(&tb), vec!["di", "ana", "ed", "bo", "cy"]);
}

#[test]
fn multiple_keys_with_directions() {
    let mut tb = table();
    sort_rows(&mut tb, &[("team", Direction::Descending), ("score", Direction::Descending), ("name", Direction::Ascending)]).unwrap();
    assert_eq!(names(&tb), vec!["cy", "ana", "ed", "bo", "di"]);
}

#[test]
fn unknown_column_leaves_table_untouched() {
    let mut tb = table();
    let err = sort_rows(&mut tb, &[("score", Direction::Ascending), ("rank", Direction::Ascending), ("x", Direction::Ascending)]);
    assert_eq!(err, Err(SortError::UnknownColumn("rank".to_string())));
    assert_eq!(tb, table());
}

#[test]
fn no_keys_keeps_order() {
    let mut tb = table();
    sort_rows(&mut tb, &[]).unwrap();
    assert_eq!(tb, table());
}
