// Task: `text_stats` computes readability statistics of a paragraph, as the doc
// comments say. The code compiles but has a bug. Fix it and return the whole
// corrected file.

#[derive(Debug, PartialEq)]
pub struct TextStats {
    /// Whitespace-separated tokens holding at least one alphanumeric character.
    pub words: usize,
    /// Pieces between '.', '!' and '?' that hold at least one word.
    pub sentences: usize,
    /// Mean number of alphanumeric characters per word; None without words.
    pub mean_word_len: Option<f64>,
}

fn is_word(token: &str) -> bool {
    token.chars().any(char::is_alphanumeric)
}

pub fn text_stats(text: &str) -> TextStats {
    let words: Vec<&str> = text.split_whitespace().filter(|t| is_word(t)).collect();
    let sentences = text
        .split(|c| c == '.' || c == '!' || c == '?')
        .filter(|piece| piece.split_whitespace().any(is_word))
        .count();
    let letters: usize = words.iter().map(|w| w.chars().filter(|c| c.is_alphanumeric()).count()).sum();
    let mean_word_len = if words.is_empty() {
        None
    } else {
        Some(letters as f64 / words.len() as f64)
    };
    TextStats { words: words.len(), sentences, mean_word_len }
}
