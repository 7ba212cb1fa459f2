use super::*;

fn index() -> SearchIndex {
    SearchIndex::build(&[
        "Printer on floor 3 is jammed.",
        "The printer needs toner",
        "Coffee machine on floor 3: broken!",
        "Floor 2 printer is fine, toner low",
    ])
}

#[test]
fn single_word_queries() {
    assert_eq!(index().search("printer"), vec![0, 1, 3]);
    assert_eq!(index().search("coffee"), vec![2]);
}

#[test]
fn all_words_must_match() {
    assert_eq!(index().search("printer toner"), vec![1, 3]);
    assert_eq!(index().search("floor 3"), vec![0, 2]);
    assert_eq!(index().search("printer floor 3"), vec![0]);
}

#[test]
fn query_words_are_normalised() {
    assert_eq!(index().search("  PRINTER,  (Toner)  "), vec![1, 3]);
    assert_eq!(index().search("broken"), vec![2]);
}

#[test]
fn no_matches() {
    assert!(index().search("").is_empty());
    assert!(index().search("... !!").is_empty());
    assert!(index().search("scanner").is_empty());
    assert!(index().search("coffee toner").is_empty());
    assert!(index().search("printer scanner").is_empty());
}

#[test]
fn repeated_words_are_harmless() {
    assert_eq!(index().search("toner toner"), vec![1, 3]);
}
