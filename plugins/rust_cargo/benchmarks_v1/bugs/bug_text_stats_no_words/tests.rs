use super::*;

#[test]
fn counts_words_and_sentences() {
    let s = text_stats("The cat sat. Did it? Yes!");
    assert_eq!(s.words, 6);
    assert_eq!(s.sentences, 3);
    assert_eq!(s.mean_word_len, Some(17.0 / 6.0));
}

#[test]
fn punctuation_is_not_a_word() {
    let s = text_stats("Well -- ok...");
    assert_eq!(s.words, 2);
    assert_eq!(s.sentences, 1);
    assert_eq!(s.mean_word_len, Some(3.0));
}

#[test]
fn empty_text_has_no_mean() {
    assert_eq!(text_stats(""), TextStats { words: 0, sentences: 0, mean_word_len: None });
}

#[test]
fn punctuation_only_text_has_no_mean() {
    assert_eq!(text_stats(" ... ?! - "), TextStats { words: 0, sentences: 0, mean_word_len: None });
}
