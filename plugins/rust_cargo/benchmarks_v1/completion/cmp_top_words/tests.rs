use super::*;

fn owned(pairs: &[(&str, usize)]) -> Vec<(String, usize)> {
    pairs.iter().map(|&(w, c)| (w.to_string(), c)).collect()
}

#[test]
fn empty_text_has_no_words() {
    assert!(top_words("", 3).is_empty());
}

#[test]
fn counts_case_insensitively_and_breaks_ties_alphabetically() {
    assert_eq!(top_words("The cat and the hat. THE end", 3), owned(&[("the", 3), ("and", 1), ("cat", 1)]));
}

#[test]
fn apostrophes_stay_in_words_and_digits_split_them() {
    assert_eq!(top_words("don't stop: don't-stop 42stop", 5), owned(&[("stop", 3), ("don't", 2)]));
}

#[test]
fn n_larger_than_the_vocabulary() {
    assert_eq!(top_words("b a b", 10), owned(&[("b", 2), ("a", 1)]));
}

#[test]
fn n_zero_returns_nothing() {
    assert!(top_words("word word", 0).is_empty());
}
