#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Trace,
    Debug,
    Info,
    Warn,
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LogRecord {
    pub ts: u64,
    pub level: Level,
    pub service: String,
    pub message: String,
}

impl LogRecord {
    pub fn new(ts: u64, level: Level, service: &str, message: &str) -> LogRecord {
        LogRecord { ts, level, service: service.to_string(), message: message.to_string() }
    }
}
