use std::iter::Peekable;
use std::str::Chars;

/// A token of a search-filter query such as `age >= 30 name != "bob"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// An ASCII letter or `_`, followed by ASCII letters, digits or `_`.
    Ident(String),
    /// A run of ASCII digits.
    Number(u64),
    /// The text between two double quotes (no escapes).
    Str(String),
    /// One of `=`, `!=`, `<`, `<=`, `>`, `>=`.
    Op(&'static str),
}

/// Splits `query` into tokens, skipping whitespace between them. Tokens are
/// read greedily (`<=` is one operator, `ab12` one identifier).
///
/// Returns `Err(c)` with the first character that cannot start or complete a
/// token: any other character, a `!` not followed by `=`, the opening `"` of
/// an unterminated string, or the first digit of a number too large for `u64`.
pub fn tokenize(query: &str) -> Result<Vec<Token>, char> {
    let mut chars = query.chars().peekable();
    let mut tokens = Vec::new();
