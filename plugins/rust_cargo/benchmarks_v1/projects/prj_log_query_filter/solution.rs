// Task: implement the `Query` builder. `Query::new()` matches everything.
// `min_level(l)` keeps records with level >= l, `service(s)` keeps records of
// that exact service, `contains(t)` keeps records whose message contains t
// ignoring ASCII case, and `between(from, to)` keeps records with
// from <= ts < to. Each builder method takes and returns `self`; calling one
// twice replaces the earlier value. `matches(&LogRecord) -> bool` checks one
// record; `run(&[LogRecord]) -> Vec<&LogRecord>` returns the matches in order.
use crate::record::{Level, LogRecord};

#[derive(Debug, Clone, Default)]
pub struct Query {
    min_level: Option<Level>,
    service: Option<String>,
    contains: Option<String>,
    range: Option<(u64, u64)>,
}

impl Query {
    pub fn new() -> Query {
        Query::default()
    }

    pub fn min_level(mut self, level: Level) -> Query {
        self.min_level = Some(level);
        self
    }

    pub fn service(mut self, service: &str) -> Query {
        self.service = Some(service.to_string());
        self
    }

    pub fn contains(mut self, text: &str) -> Query {
        self.contains = Some(text.to_ascii_lowercase());
        self
    }

    pub fn between(mut self, from: u64, to: u64) -> Query {
        self.range = Some((from, to));
        self
    }

    pub fn matches(&self, r: &LogRecord) -> bool {
        self.min_level.map_or(true, |l| r.level >= l)
            && self.service.as_ref().map_or(true, |s| &r.service == s)
            && self.contains.as_ref().map_or(true, |t| r.message.to_ascii_lowercase().contains(t.as_str()))
            && self.range.map_or(true, |(from, to)| from <= r.ts && r.ts < to)
    }

    pub fn run<'a>(&self, records: &'a [LogRecord]) -> Vec<&'a LogRecord> {
        records.iter().filter(|r| self.matches(r)).collect()
    }
}
