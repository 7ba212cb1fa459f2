/// Checks that the brackets `()`, `[]` and `{}` of a template expression are
/// balanced and properly nested. Characters inside double-quoted strings are
/// ignored (there are no escapes). On failure returns the byte offset of the
/// first closing bracket that does not match, or the length of the input when
/// something is still open at the end (including an unterminated string).
pub fn check_brackets(src: &str) -> Result<(), usize> {
    let mut stack: Vec<char> = Vec::new();
    let mut in_string = false;
    for (i, c) in src.char_indices() {
        if in_string {
            if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                /*FILL*/
            }
            _ => {}
        }
    }
    if stack.is_empty() && !in_string {
        Ok(())
    } else {
        Err(src.len())
    }
}
