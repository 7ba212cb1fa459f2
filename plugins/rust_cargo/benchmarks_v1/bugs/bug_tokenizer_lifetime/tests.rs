use super::*;

#[test]
fn splits_an_expression() {
    assert_eq!(tokenize("width * (x_1 + 12)"), vec!["width", "*", "(", "x_1", "+", "12", ")"]);
}

#[test]
fn numbers_and_identifiers_are_split_where_they_change() {
    assert_eq!(tokenize("12ab 3_"), vec!["12", "ab", "3", "_"]);
}

#[test]
fn empty_and_blank_input() {
    assert!(tokenize("").is_empty());
    assert!(tokenize("  \t\n").is_empty());
}

#[test]
fn tokens_outlive_the_tokenizer() {
    let source = String::from("a<=b");
    let first_two = {
        let mut t = Tokenizer::new(&source);
        let a = t.next_token();
        let b = t.next_token();
        (a, b)
    };
    assert_eq!(first_two, (Some("a"), Some("<")));
}
