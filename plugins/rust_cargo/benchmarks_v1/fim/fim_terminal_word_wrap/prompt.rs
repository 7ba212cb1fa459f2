/// Wraps text for a fixed-width terminal. Words (separated by any whitespace)
/// are packed greedily into lines of at most `width` characters, separated by
/// single spaces. A word longer than `width` is put on a line of its own,
/// unbroken.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        /*FILL*/
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}
