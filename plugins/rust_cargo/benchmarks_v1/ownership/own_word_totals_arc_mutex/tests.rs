use super::*;

#[test]
fn counts_across_documents() {
    let out = word_totals(vec!["The cat".to_string(), "the DOG the".to_string()]);
    let expected: BTreeMap<String, usize> =
        [("cat", 1), ("dog", 1), ("the", 3)].iter().map(|(w, n)| (w.to_string(), *n)).collect();
    assert_eq!(out, expected);
}

#[test]
fn many_documents_lose_nothing() {
    let docs: Vec<String> = (0..12).map(|_| "alpha beta ".repeat(100)).collect();
    let out = word_totals(docs);
    assert_eq!(out.get("alpha"), Some(&1_200));
    assert_eq!(out.get("beta"), Some(&1_200));
    assert_eq!(out.len(), 2);
}

#[test]
fn empty_inputs() {
    assert!(word_totals(Vec::new()).is_empty());
    assert!(word_totals(vec!["   ".to_string(), String::new()]).is_empty());
}
