/// Splits one CSV record into fields. Fields are separated by commas. A field
/// that starts with `"` is quoted: it runs to the matching closing quote, may
/// contain commas, and `""` inside it stands for one `"`. A quote anywhere
/// else in an unquoted field is an ordinary character. Returns `None` for an
/// unterminated quoted field, or when a closing quote is followed by anything
/// but a comma or the end of the line.
pub fn split_record(line: &str) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            /*FILL*/
        } else {
            while let Some(&c) = chars.peek() {
                if c == ',' {
                    break;
                }
                field.push(c);
                chars.next();
            }
        }
        fields.push(field);
        match chars.next() {
            Some(',') => continue,
            None => return Some(fields),
            Some(_) => return None,
        }
    }
}
