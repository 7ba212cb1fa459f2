// Task: `longest_word` picks the longest word of a text, as its doc comment
// says. The file does not compile. Fix it and return the whole corrected file.

/// Returns the longest word of `text`, measured in characters. Words are
/// separated by whitespace and have leading and trailing punctuation removed;
/// words that are pure punctuation are ignored. The first of equally long
/// words wins. If `text` holds no word, `fallback` is returned.
pub fn longest_word(text: &str, fallback: &str) -> &str {
    let mut best: Option<(&str, usize)> = None;
    for raw in text.split_whitespace() {
        let word = raw.trim_matches(|c: char| c.is_ascii_punctuation());
        if word.is_empty() {
            continue;
        }
        let len = word.chars().count();
        match best {
            Some((_, best_len)) if best_len >= len => {}
            _ => best = Some((word, len)),
        }
    }
    best.map(|(word, _)| word).unwrap_or(fallback)
}
