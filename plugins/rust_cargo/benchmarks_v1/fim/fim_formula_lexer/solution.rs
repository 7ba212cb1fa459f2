/// A token of a spreadsheet-like formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    Num(u64),
    Ident(String),
    Op(char),
    LParen,
    RParen,
}

/// Splits a formula such as `"rate*(hours+2)"` into tokens. A number is a run
/// of ASCII digits and `_` starting with a digit; the underscores are digit
/// separators (`1_000`). An identifier starts with a letter or `_` and goes on
/// with letters, digits or `_`. Operators are `+ - * /`; spaces, tabs and
/// newlines are skipped. The error is the byte offset of an unexpected
/// character, or of the start of a number that does not fit in a `u64`.
pub fn tokenize(src: &str) -> Result<Vec<Token>, usize> {
    let bytes = src.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b' ' | b'\t' | b'\n' => i += 1,
            b'0'..=b'9' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
                    i += 1;
                }
                let mut value: u64 = 0;
                for &d in &bytes[start..i] {
                    if d != b'_' {
                        value = value
                            .checked_mul(10)
                            .and_then(|v| v.checked_add(u64::from(d - b'0')))
                            .ok_or(start)?;
                    }
                }
                tokens.push(Token::Num(value));
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                tokens.push(Token::Ident(src[start..i].to_string()));
            }
            b'+' | b'-' | b'*' | b'/' => {
                tokens.push(Token::Op(char::from(c)));
                i += 1;
            }
            b'(' => {
                tokens.push(Token::LParen);
                i += 1;
            }
            b')' => {
                tokens.push(Token::RParen);
                i += 1;
            }
            _ => return Err(i),
        }
    }
    Ok(tokens)
}
