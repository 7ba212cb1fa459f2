// Task: `wrap` lays out the text of a terminal help screen, as its doc comment
// says. The code compiles but has a bug. Fix it and return the whole corrected
// file.

/// Wraps `text` into lines of at most `width` characters, breaking only at
/// whitespace. Words on a line are separated by one space. A word longer than
/// `width` goes on a line of its own. Text without words gives no lines.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut line_len = 0;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len >= width {
            lines.push(std::mem::take(&mut line));
            line_len = 0;
        }
        if line_len > 0 {
            line.push(' ');
            line_len += 1;
        }
        line.push_str(word);
        line_len += len;
    }
    if line_len > 0 {
        lines.push(line);
    }
    lines
}
