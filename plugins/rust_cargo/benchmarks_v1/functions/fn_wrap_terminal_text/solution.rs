/// Wraps `text` into lines of at most `width` characters for a fixed-width
/// terminal.
///
/// Words are maximal runs of non-whitespace characters. They are packed
/// greedily, in order, separated by single spaces: a word goes on the current
/// line if it fits, otherwise it starts a new line. The original whitespace
/// (including newlines) is not preserved. A word longer than `width` is put
/// alone on its own line, unbroken. Widths and lengths count `char`s. Text
/// without words gives no lines.
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut current_len = 0;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if current_len > 0 && current_len + 1 + len > width {
            lines.push(std::mem::take(&mut current));
            current_len = 0;
        }
        if current_len > 0 {
            current.push(' ');
            current_len += 1;
        }
        current.push_str(word);
        current_len += len;
    }
    if current_len > 0 {
        lines.push(current);
    }
    lines
}
