/// The class of an HTTP response status code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusClass {
    Informational,
    Success,
    Redirection,
    ClientError,
    ServerError,
    /// Anything outside `100..=599`.
    Invalid,
}

/// Classifies `code` by its hundreds digit and tells whether a client may retry
/// the request: 429 (too many requests), 502, 503 and 504 are retryable, every
/// other code is not.
pub fn classify(code: u16) -> (StatusClass, bool) {
    let class = match code {
        100..=199 => StatusClass::Informational,
