use std::collections::{BTreeSet, HashMap};

/// Normalises a word for indexing and search: trims leading and trailing
/// ASCII punctuation and lowercases ASCII letters; `None` if nothing is left.
fn normalize(word: &str) -> Option<String> {
    let trimmed = word.trim_matches(|c: char| c.is_ascii_punctuation());
    if trimmed.is_empty() {
        None
    } else {
        Some(trimmed.to_ascii_lowercase())
    }
}

/// A tiny full-text index over numbered documents.
#[derive(Debug, Default)]
pub struct SearchIndex {
    postings: HashMap<String, BTreeSet<usize>>,
}

impl SearchIndex {
    /// Indexes `documents`: every normalised whitespace-separated word of
    /// document `i` maps to `i`.
    pub fn build(documents: &[&str]) -> Self {
        let mut index = SearchIndex::default();
        for (id, text) in documents.iter().enumerate() {
            for word in text.split_whitespace().filter_map(normalize) {
                index.postings.entry(word).or_default().insert(id);
            }
        }
        index
    }

    /// Returns, in ascending order, the ids of the documents that contain
    /// every word of `query` (words normalised as in `build`). A query
    /// without words matches nothing.
    pub fn search(&self, query: &str) -> Vec<usize> {
