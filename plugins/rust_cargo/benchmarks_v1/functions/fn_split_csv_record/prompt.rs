/// Splits one line of a CSV export into its fields.
///
/// Fields are separated by `,`. A field that starts with `"` is quoted: it
/// runs to the matching closing `"`, may contain `,`, and writes a literal
/// quote as `""`; the closing quote must be followed by `,` or the end of the
/// line. Unquoted fields are taken verbatim (no trimming) and may not contain
/// `"`. An empty line is a single empty field.
///
/// Returns `None` for malformed input: an unterminated quoted field, a `"`
/// inside an unquoted field, or anything other than `,` after a closing quote.
pub fn split_csv_record(line: &str) -> Option<Vec<String>> {
