// Task: implement `crate::rule::Rule` for the three rules below.
// MinLength(n): `TooShort { min: n, actual }` when the password has fewer
//   than n characters (counted as chars, not bytes).
// RequireClasses { digit, uppercase, symbol }: for each class that is
//   required and absent, in this order: MissingDigit, MissingUppercase,
//   MissingSymbol. A symbol is any ASCII punctuation character.
// NoRepeats(max): `Repeated(c)` for each character that occurs more than max
//   times in a row, once per run, in order of appearance.

pub struct MinLength(pub usize);

pub struct RequireClasses {
    pub digit: bool,
    pub uppercase: bool,
    pub symbol: bool,
}

pub struct NoRepeats(pub usize);
