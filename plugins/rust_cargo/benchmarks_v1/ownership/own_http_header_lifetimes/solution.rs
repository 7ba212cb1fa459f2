// Task: an HTTP server parses request headers without copying them: `Header`
// borrows its name and value from the raw request text. The file does not
// compile. Fix it and return the whole corrected file.

/// One "Name: value" header line, borrowed from the raw request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header<'a> {
    pub name: &'a str,
    pub value: &'a str,
}

impl<'a> Header<'a> {
    /// Header names compare case-insensitively.
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }
}

/// Parses header lines up to the first empty line. Lines without a ':' are
/// skipped; names and values are trimmed.
pub fn parse_headers(raw: &str) -> Vec<Header<'_>> {
    raw.lines()
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            Some(Header { name: name.trim(), value: value.trim() })
        })
        .collect()
}

/// The value of the first header called `name`. The value borrows from the
/// raw request, not from `headers`.
pub fn find<'a>(headers: &[Header<'a>], name: &str) -> Option<&'a str> {
    headers.iter().find(|h| h.is(name)).map(|h| h.value)
}
