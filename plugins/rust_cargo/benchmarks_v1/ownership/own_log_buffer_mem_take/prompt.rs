// Task: `LogBuffer` batches log lines before they are shipped to a log server,
// as the doc comments say. The file does not compile. Fix it and return the
// whole corrected file.

#[derive(Debug)]
pub struct LogBuffer {
    pending: Vec<String>,
    capacity: usize,
    batches: usize,
}

impl LogBuffer {
    /// A buffer that flushes once it holds `capacity` lines (at least 1).
    pub fn new(capacity: usize) -> LogBuffer {
        LogBuffer { pending: Vec::new(), capacity: capacity.max(1), batches: 0 }
    }

    /// Adds a line; if the buffer is then full, flushes it and returns the batch.
    pub fn push(&mut self, line: &str) -> Option<Vec<String>> {
        self.pending.push(line.to_string());
        if self.pending.len() >= self.capacity {
            Some(self.flush())
        } else {
            None
        }
    }

    /// Returns all pending lines, leaving the buffer empty. Flushing an empty
    /// buffer returns nothing and does not count as a batch.
    pub fn flush(&mut self) -> Vec<String> {
        if self.pending.is_empty() {
            return Vec::new();
        }
        self.batches += 1;
        let batch = self.pending;
        self.pending = Vec::new();
        batch
    }

    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// How many non-empty batches were flushed.
    pub fn batches(&self) -> usize {
        self.batches
    }
}
