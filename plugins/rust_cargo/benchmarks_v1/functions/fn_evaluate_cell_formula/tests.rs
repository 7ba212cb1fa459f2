use super::*;

#[test]
fn literals_and_spaces() {
    assert_eq!(evaluate_formula("42"), Some(42));
    assert_eq!(evaluate_formula("   7  "), Some(7));
    assert_eq!(evaluate_formula("1+2"), Some(3));
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(evaluate_formula("2 * (3 + 4) - 10 / 3"), Some(11));
    assert_eq!(evaluate_formula("2 + 3 * 4"), Some(14));
    assert_eq!(evaluate_formula("7 - 3 - 2"), Some(2));
    assert_eq!(evaluate_formula("100 / 10 / 5"), Some(2));
    assert_eq!(evaluate_formula("((1 + 2) * (3 + 4))"), Some(21));
}

#[test]
fn unary_minus_and_truncation() {
    assert_eq!(evaluate_formula("-7 / 2"), Some(-3));
    assert_eq!(evaluate_formula("2 * -3"), Some(-6));
    assert_eq!(evaluate_formula("-(2 + 3) * 2"), Some(-10));
    assert_eq!(evaluate_formula("--5"), Some(5));
    assert_eq!(evaluate_formula("4 - -4"), Some(8));
}

#[test]
fn syntax_errors() {
    for bad in ["", "   ", "1 +", "* 2", "(1 + 2", "1 + 2)", "1 2", "()", "2 ** 3", "3 % 2", "x + 1", "1 + (2 *)"] {
        assert_eq!(evaluate_formula(bad), None, "{:?}", bad);
    }
}

#[test]
fn arithmetic_errors() {
    assert_eq!(evaluate_formula("5 / 0"), None);
    assert_eq!(evaluate_formula("5 / (3 - 3)"), None);
    assert_eq!(evaluate_formula("9223372036854775807 + 1"), None);
    assert_eq!(evaluate_formula("-9223372036854775807 - 2"), None);
    assert_eq!(evaluate_formula("3037000500 * 3037000500"), None);
    assert_eq!(evaluate_formula("99999999999999999999"), None);
    assert_eq!(evaluate_formula("9223372036854775807"), Some(i64::MAX));
}
