/// Words: maximal runs of alphanumeric characters or apostrophes, lower-cased.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty() && w.chars().any(|c| c.is_alphanumeric()))
        .map(|w| w.to_lowercase())
        .collect()
}

/// Sentences: non-blank pieces of text ended by '.', '!' or '?' (or the end).
pub fn sentence_count(text: &str) -> usize {
    text.split(|c| c == '.' || c == '!' || c == '?')
        .filter(|s| s.chars().any(|c| c.is_alphanumeric()))
        .count()
}
