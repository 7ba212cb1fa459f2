// Task: implement `crate::rule::Rule` for the three rules below.
// MinLength(n): `TooShort { min: n, actual }` when the password has fewer
//   than n characters (counted as chars, not bytes).
// RequireClasses { digit, uppercase, symbol }: for each class that is
//   required and absent, in this order: MissingDigit, MissingUppercase,
//   MissingSymbol. A symbol is any ASCII punctuation character.
// NoRepeats(max): `Repeated(c)` for each character that occurs more than max
//   times in a row, once per run, in order of appearance.
use crate::rule::{Rule, Violation};

pub struct MinLength(pub usize);

pub struct RequireClasses {
    pub digit: bool,
    pub uppercase: bool,
    pub symbol: bool,
}

pub struct NoRepeats(pub usize);

impl Rule for MinLength {
    fn check(&self, password: &str) -> Vec<Violation> {
        let actual = password.chars().count();
        if actual < self.0 {
            vec![Violation::TooShort { min: self.0, actual }]
        } else {
            Vec::new()
        }
    }
}

impl Rule for RequireClasses {
    fn check(&self, password: &str) -> Vec<Violation> {
        let mut out = Vec::new();
        if self.digit && !password.chars().any(|c| c.is_ascii_digit()) {
            out.push(Violation::MissingDigit);
        }
        if self.uppercase && !password.chars().any(char::is_uppercase) {
            out.push(Violation::MissingUppercase);
        }
        if self.symbol && !password.chars().any(|c| c.is_ascii_punctuation()) {
            out.push(Violation::MissingSymbol);
        }
        out
    }
}

impl Rule for NoRepeats {
    fn check(&self, password: &str) -> Vec<Violation> {
        let mut out = Vec::new();
        let mut prev: Option<char> = None;
        let mut run = 0usize;
        for c in password.chars() {
            if prev == Some(c) {
                run += 1;
            } else {
                prev = Some(c);
                run = 1;
            }
            if run == self.0 + 1 {
                out.push(Violation::Repeated(c));
            }
        }
        out
    }
}
