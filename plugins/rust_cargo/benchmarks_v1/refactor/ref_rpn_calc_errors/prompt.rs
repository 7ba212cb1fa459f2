// Task: `eval_rpn` panics on bad input. Make it return `Result<i64, CalcError>`
// with this enum (derive Debug, PartialEq):
//   StackUnderflow { position: usize }   an operator at this 0-based token index lacks operands
//   DivisionByZero { position: usize }
//   Overflow { position: usize }         checked arithmetic failed
//   UnknownToken(String)
//   LeftoverOperands(usize)              more than one value is left (how many)
//   Empty                                no tokens at all
// Valid expressions must evaluate exactly as before.

/// Evaluates a whitespace-separated reverse Polish expression over i64
/// with the operators + - * / (integer division truncating toward zero).
pub fn eval_rpn(expr: &str) -> i64 {
    let mut stack: Vec<i64> = Vec::new();
    for token in expr.split_whitespace() {
        match token {
            "+" | "-" | "*" | "/" => {
                let b = stack.pop().expect("stack underflow");
                let a = stack.pop().expect("stack underflow");
                let r = match token {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    _ => {
                        if b == 0 {
                            panic!("division by zero");
                        }
                        a.checked_div(b)
                    }
                };
                stack.push(r.expect("overflow"));
            }
            _ => stack.push(token.parse().expect("unknown token")),
        }
    }
    assert_eq!(stack.len(), 1, "malformed expression");
    stack[0]
}
