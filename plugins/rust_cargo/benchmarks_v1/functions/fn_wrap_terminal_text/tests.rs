use super::*;

#[test]
fn no_words_no_lines() {
    assert!(wrap_words("", 10).is_empty());
    assert!(wrap_words("  \n\t ", 10).is_empty());
}

#[test]
fn greedy_packing() {
    assert_eq!(
        wrap_words("the quick brown fox jumps over the lazy dog", 10),
        vec!["the quick", "brown fox", "jumps over", "the lazy", "dog"]
    );
}

#[test]
fn exact_fit_stays_on_the_line() {
    assert_eq!(wrap_words("abc de", 6), vec!["abc de"]);
    assert_eq!(wrap_words("abc def", 6), vec!["abc", "def"]);
}

#[test]
fn whitespace_is_normalised() {
    assert_eq!(wrap_words("  one\n\ntwo   three ", 80), vec!["one two three"]);
}

#[test]
fn long_words_get_their_own_line() {
    assert_eq!(wrap_words("a supercalifragilistic b", 5), vec!["a", "supercalifragilistic", "b"]);
    assert_eq!(wrap_words("x y", 0), vec!["x", "y"]);
}

#[test]
fn width_counts_characters_not_bytes() {
    assert_eq!(wrap_words("éé éé éé", 5), vec!["éé éé", "éé"]);
}
