// Task: `parse_args` panics on bad arguments. Make it return
// `Result<Options, ArgError>` with the enum (derive Debug, PartialEq):
//   UnknownFlag(String)          the flag as written
//   MissingValue(String)         a flag that needs a value came last
//   InvalidPort(String)          the value given to --port
//   Repeated(String)             a flag given twice (the flag as written)
// Arguments are checked from left to right; the first problem is returned.

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub host: String,
    pub port: u16,
    pub verbose: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgError {
    UnknownFlag(String),
    MissingValue(String),
    InvalidPort(String),
    Repeated(String),
}

/// Accepts `--host NAME`, `--port N` (1..=65535) and `--verbose`.
/// Defaults: host "localhost", port 8080, not verbose.
pub fn parse_args(args: &[&str]) -> Result<Options, ArgError> {
    let mut host: Option<String> = None;
    let mut port: Option<u16> = None;
    let mut verbose = false;
    let mut iter = args.iter();
    while let Some(&flag) = iter.next() {
        match flag {
            "--host" => {
                if host.is_some() {
                    return Err(ArgError::Repeated(flag.to_string()));
                }
                let value = iter.next().ok_or_else(|| ArgError::MissingValue(flag.to_string()))?;
                host = Some(value.to_string());
            }
            "--port" => {
                if port.is_some() {
                    return Err(ArgError::Repeated(flag.to_string()));
                }
                let value = iter.next().ok_or_else(|| ArgError::MissingValue(flag.to_string()))?;
                match value.parse::<u16>() {
                    Ok(p) if p != 0 => port = Some(p),
                    _ => return Err(ArgError::InvalidPort(value.to_string())),
                }
            }
            "--verbose" => {
                if verbose {
                    return Err(ArgError::Repeated(flag.to_string()));
                }
                verbose = true;
            }
            other => return Err(ArgError::UnknownFlag(other.to_string())),
        }
    }
    Ok(Options { host: host.unwrap_or_else(|| "localhost".to_string()), port: port.unwrap_or(8080), verbose })
}
