/// Parses one line of a `.env` file. Blank lines and comments (whose first
/// non-space character is `#`) give `None`. Any other line must be
/// `KEY=VALUE`, split at the first `=`: the key is trimmed and must not be
/// empty; the value is trimmed, then one pair of surrounding double quotes is
/// removed if present. A line without `=`, or with an empty key, gives
/// `Some(Err(..))` holding the trimmed line.
pub fn parse_env_line(line: &str) -> Option<Result<(String, String), String>> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let parsed = match trimmed.split_once('=') {
        Some((key, value)) if !key.trim().is_empty() => {
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            Ok((key.trim().to_string(), value.to_string()))
        }
        _ => Err(trimmed.to_string()),
    };
    Some(parsed)
}
