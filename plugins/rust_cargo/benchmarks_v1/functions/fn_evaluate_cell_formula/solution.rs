/// Evaluates a spreadsheet cell formula over integers, such as
/// `"2 * (3 + 4) - 10 / 3"`.
///
/// Supported: non-negative decimal integer literals, the binary operators
/// `+ - * /`, parentheses, and unary minus (which may be repeated, as in
/// `--5`). Spaces may appear between tokens but not inside a literal. `*` and
/// `/` bind tighter than `+` and `-`, operators of equal precedence associate
/// to the left, and division truncates toward zero.
///
/// Returns `None` for any syntax error (including an empty formula or a
/// missing operand), for division by zero and for `i64` overflow.
pub fn evaluate_formula(formula: &str) -> Option<i64> {
    let mut parser = FormulaParser { bytes: formula.as_bytes(), pos: 0 };
    let value = parser.expression()?;
    if parser.peek().is_some() {
        return None;
    }
    Some(value)
}

struct FormulaParser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl FormulaParser<'_> {
    /// Skips spaces and returns the next byte without consuming it.
    fn peek(&mut self) -> Option<u8> {
        while self.bytes.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
        self.bytes.get(self.pos).copied()
    }

    fn expression(&mut self) -> Option<i64> {
        let mut value = self.term()?;
        loop {
            match self.peek() {
                Some(b'+') => {
                    self.pos += 1;
                    value = value.checked_add(self.term()?)?;
                }
                Some(b'-') => {
                    self.pos += 1;
                    value = value.checked_sub(self.term()?)?;
                }
                _ => return Some(value),
            }
        }
    }

    fn term(&mut self) -> Option<i64> {
        let mut value = self.factor()?;
        loop {
            match self.peek() {
                Some(b'*') => {
                    self.pos += 1;
                    value = value.checked_mul(self.factor()?)?;
                }
                Some(b'/') => {
                    self.pos += 1;
                    value = value.checked_div(self.factor()?)?;
                }
                _ => return Some(value),
            }
        }
    }

    fn factor(&mut self) -> Option<i64> {
        match self.peek()? {
            b'-' => {
                self.pos += 1;
                self.factor()?.checked_neg()
            }
            b'(' => {
                self.pos += 1;
                let value = self.expression()?;
                if self.peek() != Some(b')') {
                    return None;
                }
                self.pos += 1;
                Some(value)
            }
            b'0'..=b'9' => {
                let start = self.pos;
                while self.bytes.get(self.pos).map_or(false, u8::is_ascii_digit) {
                    self.pos += 1;
                }
                std::str::from_utf8(&self.bytes[start..self.pos]).ok()?.parse().ok()
            }
            _ => None,
        }
    }
}
