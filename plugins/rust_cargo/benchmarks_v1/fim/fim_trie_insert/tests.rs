use super::*;

fn trie(terms: &[&str]) -> Trie {
    let mut t = Trie::new();
    for term in terms {
        t.insert(term);
    }
    t
}

#[test]
fn insert_reports_new_terms() {
    let mut t = Trie::new();
    assert!(t.is_empty());
    assert!(t.insert("cart"));
    assert!(t.insert("car"));
    assert!(!t.insert("cart"));
    assert_eq!(t.len(), 2);
}

#[test]
fn completes_prefixes_in_order() {
    let t = trie(&["cart", "dog", "car", "cat", "care"]);
    assert_eq!(t.complete("car"), vec!["car", "care", "cart"]);
    assert_eq!(t.complete("ca"), vec!["car", "care", "cart", "cat"]);
    assert_eq!(t.complete(""), vec!["car", "care", "cart", "cat", "dog"]);
    assert!(t.complete("x").is_empty());
    assert!(t.complete("carts").is_empty());
}

#[test]
fn a_prefix_is_not_a_term_until_inserted() {
    let mut t = trie(&["carpet"]);
    assert_eq!(t.complete("car"), vec!["carpet"]);
    assert!(t.insert("car"));
    assert_eq!(t.complete("car"), vec!["car", "carpet"]);
}

#[test]
fn empty_and_unicode_terms() {
    let mut t = trie(&["café", "cafe"]);
    assert!(t.insert(""));
    assert!(!t.insert(""));
    assert_eq!(t.len(), 3);
    assert_eq!(t.complete("caf"), vec!["cafe", "café"]);
    assert_eq!(t.complete("")[0], "");
}
