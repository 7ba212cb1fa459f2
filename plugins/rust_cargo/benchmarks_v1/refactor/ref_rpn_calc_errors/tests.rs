use super::*;

#[test]
fn evaluates_valid_expressions() {
    assert_eq!(eval_rpn("3 4 + 2 *"), Ok(14));
    assert_eq!(eval_rpn("-7 2 /"), Ok(-3));
    assert_eq!(eval_rpn("  42 "), Ok(42));
    assert_eq!(eval_rpn("5 1 2 + 4 * + 3 -"), Ok(14));
}

#[test]
fn underflow_reports_position() {
    assert_eq!(eval_rpn("1 +"), Err(CalcError::StackUnderflow { position: 1 }));
    assert_eq!(eval_rpn("*"), Err(CalcError::StackUnderflow { position: 0 }));
}

#[test]
fn division_by_zero_and_overflow() {
    assert_eq!(eval_rpn("1 2 3 - 1 + /"), Err(CalcError::DivisionByZero { position: 6 }));
    assert_eq!(eval_rpn("9223372036854775807 1 +"), Err(CalcError::Overflow { position: 2 }));
    assert_eq!(eval_rpn("-9223372036854775808 -1 /"), Err(CalcError::Overflow { position: 2 }));
}

#[test]
fn unknown_tokens() {
    assert_eq!(eval_rpn("1 2 %"), Err(CalcError::UnknownToken("%".to_string())));
    assert_eq!(eval_rpn("1 two +"), Err(CalcError::UnknownToken("two".to_string())));
}

#[test]
fn empty_and_leftovers() {
    assert_eq!(eval_rpn(""), Err(CalcError::Empty));
    assert_eq!(eval_rpn("   "), Err(CalcError::Empty));
    assert_eq!(eval_rpn("1 2 3 +"), Err(CalcError::LeftoverOperands(2)));
}
