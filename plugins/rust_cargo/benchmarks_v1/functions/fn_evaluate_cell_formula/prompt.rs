/// Evaluates a spreadsheet cell formula over integers, such as
/// `"2 * (3 + 4) - 10 / 3"`.
///
/// Supported: non-negative decimal integer literals, the binary operators
/// `+ - * /`, parentheses, and unary minus (which may be repeated, as in
/// `--5`). Spaces may appear between tokens but not inside a literal. `*` and
/// `/` bind tighter than `+` and `-`, operators of equal precedence associate
/// to the left, and division truncates toward zero.
///
/// Returns `None` for any syntax error (including an empty formula or a
/// missing operand), for division by zero and for `i64` overflow.
pub fn evaluate_formula(formula: &str) -> Option<i64> {
