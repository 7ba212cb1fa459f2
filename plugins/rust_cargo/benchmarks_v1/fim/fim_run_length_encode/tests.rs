use super::*;

#[test]
fn empty_text_has_no_runs() {
    assert!(run_length_encode("").is_empty());
}

#[test]
fn runs_are_maximal_and_ordered() {
    assert_eq!(run_length_encode("aaabccdd"), vec![('a', 3), ('b', 1), ('c', 2), ('d', 2)]);
}

#[test]
fn a_character_may_return_after_another() {
    assert_eq!(run_length_encode("abba"), vec![('a', 1), ('b', 2), ('a', 1)]);
}

#[test]
fn multibyte_characters_count_once() {
    assert_eq!(run_length_encode("ééx"), vec![('é', 2), ('x', 1)]);
}
