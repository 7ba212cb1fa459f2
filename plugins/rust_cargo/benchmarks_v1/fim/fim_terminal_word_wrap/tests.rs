use super::*;

#[test]
fn packs_words_greedily() {
    assert_eq!(wrap("the quick brown fox", 10), vec!["the quick", "brown fox"]);
    assert_eq!(wrap("a b c d e", 3), vec!["a b", "c d", "e"]);
}

#[test]
fn exact_fit_stays_on_one_line() {
    assert_eq!(wrap("ab cd", 5), vec!["ab cd"]);
    assert_eq!(wrap("ab cd", 4), vec!["ab", "cd"]);
}

#[test]
fn long_words_get_their_own_line() {
    assert_eq!(wrap("a extraordinarily b", 5), vec!["a", "extraordinarily", "b"]);
    assert_eq!(wrap("x y", 0), vec!["x", "y"]);
}

#[test]
fn whitespace_is_collapsed() {
    assert_eq!(wrap("  a \n\n b\t ", 80), vec!["a b"]);
    assert!(wrap("   ", 10).is_empty());
    assert!(wrap("", 10).is_empty());
}

#[test]
fn width_counts_characters() {
    assert_eq!(wrap("ééé ééé ü", 7), vec!["ééé ééé", "ü"]);
}
