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
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_ascii_alphabetic() || c == '_' {
            tokens.push(Token::Ident(take_while(&mut chars, |c| c.is_ascii_alphanumeric() || c == '_')));
        } else if c.is_ascii_digit() {
            let digits = take_while(&mut chars, |c| c.is_ascii_digit());
            tokens.push(Token::Number(digits.parse().map_err(|_| c)?));
        } else if c == '"' {
            chars.next();
            let text = take_while(&mut chars, |c| c != '"');
            if chars.next() != Some('"') {
                return Err('"');
            }
            tokens.push(Token::Str(text));
        } else {
            chars.next();
            let with_eq = chars.next_if_eq(&'=').is_some();
            let op = match (c, with_eq) {
                ('=', false) => "=",
                ('!', true) => "!=",
                ('<', false) => "<",
                ('<', true) => "<=",
                ('>', false) => ">",
                ('>', true) => ">=",
                _ => return Err(c),
            };
            tokens.push(Token::Op(op));
        }
    }
    Ok(tokens)
}

fn take_while(chars: &mut Peekable<Chars<'_>>, keep: impl Fn(char) -> bool) -> String {
    let mut taken = String::new();
    while let Some(c) = chars.next_if(|&c| keep(c)) {
        taken.push(c);
    }
    taken
}
