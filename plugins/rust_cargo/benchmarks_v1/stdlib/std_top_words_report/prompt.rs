use std::collections::HashMap;

/// Returns the `k` most frequent words of a support ticket's text with their
/// counts, most frequent first; ties are broken alphabetically.
///
/// Words are maximal runs of ASCII alphanumeric characters; they are compared
/// case-insensitively and reported in lower case. Fewer than `k` entries are
/// returned when the text has fewer distinct words.
pub fn top_words(text: &str, k: usize) -> Vec<(String, usize)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
