use super::*;

fn pairs(list: &[(&str, usize)]) -> Vec<(String, usize)> {
    list.iter().map(|&(w, n)| (w.to_string(), n)).collect()
}

#[test]
fn empty_text_or_zero_k() {
    assert!(top_words("", 3).is_empty());
    assert!(top_words("  ...  ", 3).is_empty());
    assert!(top_words("disk full", 0).is_empty());
}

#[test]
fn counts_case_insensitively() {
    let text = "Disk full. disk FULL again; DISK!";
    assert_eq!(top_words(text, 2), pairs(&[("disk", 3), ("full", 2)]));
}

#[test]
fn ties_are_alphabetical() {
    assert_eq!(top_words("beta alpha gamma beta alpha", 3), pairs(&[("alpha", 2), ("beta", 2), ("gamma", 1)]));
}

#[test]
fn fewer_words_than_k() {
    assert_eq!(top_words("error 404 error", 10), pairs(&[("error", 2), ("404", 1)]));
}

#[test]
fn non_ascii_characters_separate_words() {
    assert_eq!(top_words("café-au-lait caf", 5), pairs(&[("caf", 2), ("au", 1), ("lait", 1)]));
}
