use std::collections::HashMap;

/// Returns the `k` most frequent words of a support ticket's text with their
/// counts, most frequent first; ties are broken alphabetically.
///
/// Words are maximal runs of ASCII alphanumeric characters; they are compared
/// case-insensitively and reported in lower case. Fewer than `k` entries are
/// returned when the text has fewer distinct words.
pub fn top_words(text: &str, k: usize) -> Vec<(String, usize)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        *counts.entry(word.to_ascii_lowercase()).or_insert(0) += 1;
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked.truncate(k);
    ranked
}
