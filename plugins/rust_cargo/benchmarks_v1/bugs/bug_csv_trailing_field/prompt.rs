// Task: `split_record` splits one line of a CSV export into its fields, as the
// doc comment says. The code compiles but has a bug. Fix it and return the
// whole corrected file.

/// Splits one CSV record into fields. Fields are separated by commas. A field
/// may be wrapped in double quotes, and may then contain commas; inside quotes
/// a doubled quote ("") stands for one quote character. A record with n commas
/// outside quotes has n + 1 fields, so an empty line is one empty field.
pub fn split_record(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if in_quotes => {
                if chars.peek() == Some(&'"') {
                    field.push('"');
                    chars.next();
                } else {
                    in_quotes = false;
                }
            }
            '"' => in_quotes = true,
            ',' if !in_quotes => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    if !field.is_empty() {
        fields.push(field);
    }
    fields
}
