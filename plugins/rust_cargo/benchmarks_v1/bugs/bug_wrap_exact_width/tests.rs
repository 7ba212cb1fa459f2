use super::*;

#[test]
fn lines_that_fit_exactly_are_kept() {
    assert_eq!(wrap("aaa bbb ccc", 7), vec!["aaa bbb", "ccc"]);
}

#[test]
fn wraps_a_sentence() {
    assert_eq!(
        wrap("the quick brown fox jumps over the lazy dog", 10),
        vec!["the quick", "brown fox", "jumps over", "the lazy", "dog"]
    );
}

#[test]
fn long_words_get_their_own_line() {
    assert_eq!(wrap("a configuration b", 5), vec!["a", "configuration", "b"]);
}

#[test]
fn whitespace_is_normalised_and_width_counts_characters() {
    assert_eq!(wrap("  été   ça\n va ", 6), vec!["été ça", "va"]);
    assert!(wrap("   ", 4).is_empty());
}
