// Task: `Spooler` is the job queue of an office printer, as the doc comments
// say. The file does not compile. Fix it and return the whole corrected file.
use std::collections::VecDeque;

#[derive(Debug, Default)]
pub struct Spooler {
    current: Option<String>,
    queue: VecDeque<String>,
    done: Vec<String>,
}

impl Spooler {
    pub fn new() -> Spooler {
        Spooler::default()
    }

    /// Starts printing `doc` at once if the printer is idle, else queues it.
    pub fn submit(&mut self, doc: &str) {
        if self.current.is_none() {
            self.current = Some(doc.to_string());
        } else {
            self.queue.push_back(doc.to_string());
        }
    }

    /// Marks the current document as printed and starts the next queued one.
    /// Returns the finished document, or None if the printer was idle.
    pub fn finish_current(&mut self) -> Option<String> {
        let finished = self.current.take()?;
        self.done.push(finished.clone());
        self.current = self.queue.pop_front();
        Some(finished)
    }

    /// Drops the current document without printing it and starts the next
    /// queued one. Returns the dropped document.
    pub fn cancel_current(&mut self) -> Option<String> {
        let cancelled = self.current.take();
        self.current = self.queue.pop_front();
        cancelled
    }

    pub fn current(&self) -> Option<&str> {
        self.current.as_deref()
    }

    pub fn done(&self) -> &[String] {
        &self.done
    }
}
