// Task: `Tokenizer` splits arithmetic expressions into tokens without copying
// them, and `tokenize` collects every token. The file does not compile. Fix it
// and return the whole corrected file.

/// Yields the tokens of an expression such as "width * (x_1 + 12)". A token is
/// a run of ASCII digits, an identifier (a letter or `_` followed by letters,
/// digits or `_`), or any other single non-whitespace character. Each token
/// is a slice of the input.
#[derive(Debug)]
pub struct Tokenizer<'a> {
    rest: &'a str,
}

impl<'a> Tokenizer<'a> {
    pub fn new(input: &'a str) -> Tokenizer<'a> {
        Tokenizer { rest: input }
    }

    pub fn next_token(&mut self) -> Option<&str> {
        self.rest = self.rest.trim_start();
        let first = self.rest.chars().next()?;
        let len = if first.is_ascii_digit() {
            self.rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(self.rest.len())
        } else if first.is_alphabetic() || first == '_' {
            self.rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(self.rest.len())
        } else {
            first.len_utf8()
        };
        let (token, rest) = self.rest.split_at(len);
        self.rest = rest;
        Some(token)
    }
}

/// All tokens of `input`, in order.
pub fn tokenize(input: &str) -> Vec<&str> {
    let mut tokenizer = Tokenizer::new(input);
    let mut tokens = Vec::new();
    while let Some(token) = tokenizer.next_token() {
        tokens.push(token);
    }
    tokens
}
