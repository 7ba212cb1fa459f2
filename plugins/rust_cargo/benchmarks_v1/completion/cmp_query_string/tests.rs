use super::*;

fn owned(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn parses_pairs_and_flags() {
    assert_eq!(
        parse_query("q=rust+lang&page=2&debug"),
        owned(&[("q", "rust lang"), ("page", "2"), ("debug", "")])
    );
}

#[test]
fn empty_segments_are_skipped() {
    assert!(parse_query("").is_empty());
    assert_eq!(parse_query("&&a=1&"), owned(&[("a", "1")]));
}

#[test]
fn percent_escapes_are_decoded() {
    assert_eq!(parse_query("name=J%C3%B6rg&x=%2B1"), owned(&[("name", "Jörg"), ("x", "+1")]));
}

#[test]
fn splits_at_the_first_equals_sign() {
    assert_eq!(parse_query("k=a=b&%3D=%3d"), owned(&[("k", "a=b"), ("=", "=")]));
}

#[test]
fn undecodable_segments_are_skipped() {
    assert_eq!(parse_query("a=%zz&b=%4&c=%e9&%ff=1&d=ok"), owned(&[("d", "ok")]));
}
