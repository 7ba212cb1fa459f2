use super::*;

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn change(k: &str, old: &str, new: &str) -> (String, String, String) {
    (k.to_string(), old.to_string(), new.to_string())
}

#[test]
fn changed_and_new_keys_are_reported_in_order() {
    let mut base = map(&[("port", "80"), ("host", "localhost"), ("debug", "false")]);
    let changes = merge_config(&mut base, &map(&[("port", "8080"), ("tls", "on"), ("debug", "true")]));
    assert_eq!(changes, vec![change("debug", "false", "true"), change("port", "80", "8080"), change("tls", "", "on")]);
}

#[test]
fn base_holds_the_merged_values() {
    let mut base = map(&[("port", "80"), ("host", "localhost")]);
    merge_config(&mut base, &map(&[("port", "8080"), ("tls", "on")]));
    assert_eq!(base, map(&[("host", "localhost"), ("port", "8080"), ("tls", "on")]));
}

#[test]
fn unchanged_values_are_not_reported() {
    let mut base = map(&[("port", "80")]);
    assert!(merge_config(&mut base, &map(&[("port", "80")])).is_empty());
    assert_eq!(base, map(&[("port", "80")]));
}

#[test]
fn empty_overrides_change_nothing() {
    let mut base = map(&[("a", "1")]);
    assert!(merge_config(&mut base, &BTreeMap::new()).is_empty());
    assert_eq!(base.len(), 1);
}
