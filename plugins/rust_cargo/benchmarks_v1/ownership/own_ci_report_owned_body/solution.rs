// Task: `build_report` turns the log lines of a CI job into a `Report`, as the
// doc comments say. The file does not compile. Fix it and return the whole
// corrected file.

#[derive(Debug)]
pub struct Report<'a> {
    title: &'a str,
    body: String,
    warnings: usize,
}

impl<'a> Report<'a> {
    /// The text of the first line starting with "# ", without that marker;
    /// "untitled" if there is no such line.
    pub fn title(&self) -> &'a str {
        self.title
    }

    /// Every other non-blank line, trimmed, joined with '\n'.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// How many lines contain "warning:".
    pub fn warnings(&self) -> usize {
        self.warnings
    }
}

pub fn build_report<'a>(lines: &[&'a str]) -> Report<'a> {
    let title_line = lines.iter().position(|l| l.starts_with("# "));
    let title = title_line.map_or("untitled", |i| &lines[i][2..]);
    let body_lines: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| Some(*i) != title_line && !l.trim().is_empty())
        .map(|(_, l)| l.trim())
        .collect();
    let body = body_lines.join("\n");
    let warnings = lines.iter().filter(|l| l.contains("warning:")).count();
    Report { title, body, warnings }
}
