use super::*;

fn ident(s: &str) -> Token {
    Token::Ident(s.to_string())
}

#[test]
fn empty_and_blank_queries() {
    assert_eq!(tokenize(""), Ok(vec![]));
    assert_eq!(tokenize("  \t "), Ok(vec![]));
}

#[test]
fn full_query() {
    assert_eq!(
        tokenize("age >= 30 name != \"bob smith\""),
        Ok(vec![ident("age"), Token::Op(">="), Token::Number(30), ident("name"), Token::Op("!="), Token::Str("bob smith".to_string())])
    );
}

#[test]
fn operators_without_spaces() {
    assert_eq!(
        tokenize("a<b<=c>d>=e=f"),
        Ok(vec![
            ident("a"), Token::Op("<"), ident("b"), Token::Op("<="), ident("c"),
            Token::Op(">"), ident("d"), Token::Op(">="), ident("e"), Token::Op("="), ident("f"),
        ])
    );
}

#[test]
fn identifiers_and_numbers() {
    assert_eq!(tokenize("_tmp9 007 x_1"), Ok(vec![ident("_tmp9"), Token::Number(7), ident("x_1")]));
    assert_eq!(tokenize("\"\""), Ok(vec![Token::Str(String::new())]));
}

#[test]
fn errors_report_the_offending_character() {
    assert_eq!(tokenize("a ! b"), Err('!'));
    assert_eq!(tokenize("a = 'x'"), Err('\''));
    assert_eq!(tokenize("name = \"open"), Err('"'));
    assert_eq!(tokenize("n = 99999999999999999999"), Err('9'));
    assert_eq!(tokenize("size > 10 & x"), Err('&'));
}
