use super::*;

#[test]
fn balanced_expressions() {
    assert_eq!(check_brackets(""), Ok(()));
    assert_eq!(check_brackets("f(a[1], {b: 2})"), Ok(()));
    assert_eq!(check_brackets("{[()()]}"), Ok(()));
}

#[test]
fn brackets_inside_strings_are_ignored() {
    assert_eq!(check_brackets("\"(\" + x"), Ok(()));
    assert_eq!(check_brackets("g(\")]}\")"), Ok(()));
}

#[test]
fn unmatched_closers_report_their_offset() {
    assert_eq!(check_brackets(")"), Err(0));
    assert_eq!(check_brackets("(]"), Err(1));
    assert_eq!(check_brackets("([)]"), Err(2));
    assert_eq!(check_brackets("a)"), Err(1));
    assert_eq!(check_brackets("é)"), Err(2));
}

#[test]
fn unclosed_input_reports_its_length() {
    assert_eq!(check_brackets("(("), Err(2));
    assert_eq!(check_brackets("\"abc"), Err(4));
    assert_eq!(check_brackets("{()"), Err(3));
}
