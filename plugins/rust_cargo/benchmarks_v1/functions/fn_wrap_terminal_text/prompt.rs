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
