/// One request from a web server's access log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub ip: String,
    pub method: String,
    pub path: String,
    pub status: u16,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogError {
    FieldCount(usize),
    BadStatus(String),
    BadBytes(String),
}

/// Parses a line such as `"10.0.0.1 GET /index.html 200 5120"`. Fields are
/// separated by runs of whitespace and exactly five are required. The status
/// must be a number in `100..=599`. The size is a number of bytes, or `-` for
/// a response without a body (0 bytes).
pub fn parse_request(line: &str) -> Result<Request, LogError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(LogError::FieldCount(fields.len()));
    }
    let status = match fields[3].parse::<u16>() {
        Ok(s) if (100..=599).contains(&s) => s,
        _ => return Err(LogError::BadStatus(fields[3].to_string())),
    };
    let bytes = if fields[4] == "-" {
        0
    } else {
        fields[4].parse().map_err(|_| LogError::BadBytes(fields[4].to_string()))?
    };
    Ok(Request {
        ip: fields[0].to_string(),
        method: fields[1].to_string(),
        path: fields[2].to_string(),
        status,
        bytes,
    })
}
