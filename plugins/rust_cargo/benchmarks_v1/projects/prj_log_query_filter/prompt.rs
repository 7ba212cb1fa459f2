// Task: implement the `Query` builder. `Query::new()` matches everything.
// `min_level(l)` keeps records with level >= l, `service(s)` keeps records of
// that exact service, `contains(t)` keeps records whose message contains t
// ignoring ASCII case, and `between(from, to)` keeps records with
// from <= ts < to. Each builder method takes and returns `self`; calling one
// twice replaces the earlier value. `matches(&LogRecord) -> bool` checks one
// record; `run(&[LogRecord]) -> Vec<&LogRecord>` returns the matches in order.
use crate::record::{Level, LogRecord};

#[derive(Debug, Clone, Default)]
pub struct Query {}
