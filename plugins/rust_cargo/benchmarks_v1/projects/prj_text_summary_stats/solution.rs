// Task: add `Summary::of(text: &str) -> Summary` using the tokenizer in
// `crate::tokenize`: words and distinct_words count the words (distinct is
// case-insensitive, as the tokenizer lower-cases), sentences comes from
// sentence_count, longest is the longest word in characters (the first one
// on ties, None without words) and avg_word_len is the mean length in
// characters (0.0 without words).
use crate::tokenize::{sentence_count, words};
use std::collections::HashSet;

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub words: usize,
    pub distinct_words: usize,
    pub sentences: usize,
    pub longest: Option<String>,
    pub avg_word_len: f64,
}

impl Summary {
    pub fn of(text: &str) -> Summary {
        let ws = words(text);
        let distinct: HashSet<&str> = ws.iter().map(|w| w.as_str()).collect();
        let mut longest: Option<&String> = None;
        let mut total_len = 0usize;
        for w in &ws {
            let len = w.chars().count();
            total_len += len;
            if longest.map_or(true, |l| len > l.chars().count()) {
                longest = Some(w);
            }
        }
        let avg_word_len = if ws.is_empty() { 0.0 } else { total_len as f64 / ws.len() as f64 };
        Summary {
            words: ws.len(),
            distinct_words: distinct.len(),
            sentences: sentence_count(text),
            longest: longest.cloned(),
            avg_word_len,
        }
    }
}
