// Task: `eval_rpn` panics on bad input. Make it return `Result<i64, CalcError>`
// with this enum (derive Debug, PartialEq):
//   StackUnderflow { position: usize }   an operator at this 0-based token index lacks operands
//   DivisionByZero { position: usize }
//   Overflow { position: usize }         checked arithmetic failed
//   UnknownToken(String)
//   LeftoverOperands(usize)              more than one value is left (how many)
//   Empty                                no tokens at all
// Valid expressions must evaluate exactly as before.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CalcError {
    StackUnderflow { position: usize },
    DivisionByZero { position: usize },
    Overflow { position: usize },
    UnknownToken(String),
    LeftoverOperands(usize),
    Empty,
}

/// Evaluates a whitespace-separated reverse Polish expression over i64
/// with the operators + - * / (integer division truncating toward zero).
pub fn eval_rpn(expr: &str) -> Result<i64, CalcError> {
    let mut stack: Vec<i64> = Vec::new();
    for (position, token) in expr.split_whitespace().enumerate() {
        match token {
            "+" | "-" | "*" | "/" => {
                let b = stack.pop().ok_or(CalcError::StackUnderflow { position })?;
                let a = stack.pop().ok_or(CalcError::StackUnderflow { position })?;
                let r = match token {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    _ => {
                        if b == 0 {
                            return Err(CalcError::DivisionByZero { position });
                        }
                        a.checked_div(b)
                    }
                };
                stack.push(r.ok_or(CalcError::Overflow { position })?);
            }
            _ => {
                let value = token.parse().map_err(|_| CalcError::UnknownToken(token.to_string()))?;
                stack.push(value);
            }
        }
    }
    match stack.len() {
        0 => Err(CalcError::Empty),
        1 => Ok(stack[0]),
        n => Err(CalcError::LeftoverOperands(n)),
    }
}
