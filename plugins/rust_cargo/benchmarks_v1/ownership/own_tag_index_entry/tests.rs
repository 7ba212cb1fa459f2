use super::*;

#[test]
fn documents_per_tag() {
    let mut idx = TagIndex::new();
    idx.tag(3, &["rust", "async"]);
    idx.tag(1, &["rust"]);
    idx.tag(2, &["async", "io"]);
    assert_eq!(idx.docs("rust"), &[3, 1]);
    assert_eq!(idx.docs("async"), &[3, 2]);
    assert_eq!(idx.docs("io"), &[2]);
}

#[test]
fn a_document_is_listed_once_per_tag() {
    let mut idx = TagIndex::new();
    idx.tag(5, &["db", "db"]);
    idx.tag(5, &["db"]);
    assert_eq!(idx.docs("db"), &[5]);
}

#[test]
fn tags_of_a_document() {
    let mut idx = TagIndex::new();
    idx.tag(9, &["zeta", "alpha"]);
    idx.tag(8, &["beta"]);
    idx.tag(9, &["mid"]);
    assert_eq!(idx.tags_of(9), vec!["alpha", "mid", "zeta"]);
    assert!(idx.tags_of(1).is_empty());
}

#[test]
fn unknown_tag() {
    let idx = TagIndex::new();
    assert!(idx.docs("nothing").is_empty());
}
