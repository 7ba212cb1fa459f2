use super::*;

#[test]
fn picks_the_longest_word() {
    assert_eq!(longest_word("the quick, brownish fox", "-"), "brownish");
}

#[test]
fn first_word_wins_a_tie() {
    assert_eq!(longest_word("alpha gamma delta", "-"), "alpha");
}

#[test]
fn punctuation_is_trimmed_and_length_counts_characters() {
    assert_eq!(longest_word("hello!!! --- naïve", "-"), "hello");
    assert_eq!(longest_word("(été) ab", "-"), "été");
}

#[test]
fn fallback_when_there_are_no_words() {
    let fallback = String::from("none");
    let result = {
        let text = String::from("  ... !! ");
        longest_word(&text, &fallback).to_string()
    };
    assert_eq!(result, "none");
    assert_eq!(longest_word("", "empty"), "empty");
}
