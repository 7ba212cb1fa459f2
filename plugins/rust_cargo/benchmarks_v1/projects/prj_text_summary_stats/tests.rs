use crate::summary::Summary;

#[test]
fn counts_words_and_sentences() {
    let s = Summary::of("The cat sat. The cat ran! Did it?");
    assert_eq!(s.words, 8);
    assert_eq!(s.distinct_words, 6);
    assert_eq!(s.sentences, 3);
}

#[test]
fn longest_is_first_on_ties() {
    let s = Summary::of("alpha gamma beta deltas epsilo");
    assert_eq!(s.longest.as_deref(), Some("deltas"));
    let s = Summary::of("Rust's fine");
    assert_eq!(s.longest.as_deref(), Some("rust's"));
}

#[test]
fn average_length_counts_characters() {
    let s = Summary::of("né ab");
    assert!((s.avg_word_len - 2.0).abs() < 1e-9);
    let s = Summary::of("a bcd");
    assert!((s.avg_word_len - 2.0).abs() < 1e-9);
}

#[test]
fn empty_text() {
    let s = Summary::of("  ... !! ");
    assert_eq!(s, Summary { words: 0, distinct_words: 0, sentences: 0, longest: None, avg_word_len: 0.0 });
}
