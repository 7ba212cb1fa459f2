use super::*;

#[test]
fn short_titles_are_unchanged() {
    assert_eq!(shorten("Build passed", 20), "Build passed");
    assert_eq!(shorten("Build passed", 12), "Build passed");
}

#[test]
fn long_ascii_titles_get_an_ellipsis() {
    assert_eq!(shorten("Deployment finished", 8), "Deploym…");
    assert_eq!(shorten("ab", 1), "…");
}

#[test]
fn non_ascii_titles_count_characters() {
    assert_eq!(shorten("Grüße aus Köln", 6), "Grüße…");
    assert_eq!(shorten("Ünïcödé", 7), "Ünïcödé");
    assert_eq!(shorten("日本語のタイトル", 4), "日本語…");
}

#[test]
fn zero_width() {
    assert_eq!(shorten("anything", 0), "");
    assert_eq!(shorten("", 0), "");
}
