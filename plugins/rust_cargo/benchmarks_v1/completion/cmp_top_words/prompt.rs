use std::collections::HashMap;

/// Returns the `n` most frequent words of `text` with their counts. Words are
/// maximal runs of ASCII letters and apostrophes, compared case-insensitively
/// and reported in lower case. Higher counts come first; equal counts are
/// ordered alphabetically. Fewer than `n` entries are returned when the text
/// has fewer distinct words.
pub fn top_words(text: &str, n: usize) -> Vec<(String, usize)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for word in text
        .split(|c: char| !(c.is_ascii_alphabetic() || c == '\''))
        .filter(|w| !w.is_empty())
    {
        *counts.entry(word.to_ascii_lowercase()).or_insert(0) += 1;
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| 