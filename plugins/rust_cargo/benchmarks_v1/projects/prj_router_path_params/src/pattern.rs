#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Must equal the path segment.
    Literal(String),
    /// ":name" binds one path segment.
    Param(String),
    /// "*" as the last segment matches the rest of the path (possibly nothing).
    Rest,
}

/// Parses a pattern like "/users/:id/files/*" into segments.
/// Empty segments (from doubled or trailing slashes) are ignored.
pub fn parse_pattern(pattern: &str) -> Vec<Segment> {
    pattern
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| {
            if s == "*" {
                Segment::Rest
            } else if let Some(name) = s.strip_prefix(':') {
                Segment::Param(name.to_string())
            } else {
                Segment::Literal(s.to_string())
            }
        })
        .collect()
}

/// The non-empty segments of a request path.
pub fn split_path(path: &str) -> Vec<&str> {
    path.split('/').filter(|s| !s.is_empty()).collect()
}
