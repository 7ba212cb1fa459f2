use super::*;

fn ident(s: &str) -> Token {
    Token::Ident(s.to_string())
}

#[test]
fn tokenizes_a_formula() {
    assert_eq!(
        tokenize("rate*(hours+2)"),
        Ok(vec![ident("rate"), Token::Op('*'), Token::LParen, ident("hours"), Token::Op('+'), Token::Num(2), Token::RParen])
    );
}

#[test]
fn numbers_with_separators_and_whitespace() {
    assert_eq!(tokenize("1_000 + x_1"), Ok(vec![Token::Num(1000), Token::Op('+'), ident("x_1")]));
    assert_eq!(tokenize(" \t7\n/ 30"), Ok(vec![Token::Num(7), Token::Op('/'), Token::Num(30)]));
    assert_eq!(tokenize("2x"), Ok(vec![Token::Num(2), ident("x")]));
    assert_eq!(tokenize("007"), Ok(vec![Token::Num(7)]));
}

#[test]
fn empty_input_has_no_tokens() {
    assert_eq!(tokenize(""), Ok(vec![]));
}

#[test]
fn largest_number_fits() {
    assert_eq!(tokenize("18446744073709551615"), Ok(vec![Token::Num(u64::MAX)]));
}

#[test]
fn overflow_reports_the_number_start() {
    assert_eq!(tokenize("18446744073709551616"), Err(0));
    assert_eq!(tokenize("x - 99_999_999_999_999_999_999"), Err(4));
}

#[test]
fn unexpected_characters() {
    assert_eq!(tokenize("a % b"), Err(2));
}
