// Task: add `Summary::of(text: &str) -> Summary` using the tokenizer in
// `crate::tokenize`: words and distinct_words count the words (distinct is
// case-insensitive, as the tokenizer lower-cases), sentences comes from
// sentence_count, longest is the longest word in characters (the first one
// on ties, None without words) and avg_word_len is the mean length in
// characters (0.0 without words).

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub words: usize,
    pub distinct_words: usize,
    pub sentences: usize,
    pub longest: Option<String>,
    pub avg_word_len: f64,
}
