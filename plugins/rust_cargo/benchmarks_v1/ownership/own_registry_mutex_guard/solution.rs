// Task: `Registry` hands out ids for device names and is shared between
// threads, as the doc comments say. The file does not compile. Fix it and
// return the whole corrected file.
use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct Registry {
    names: Mutex<Vec<String>>,
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Registers `name` and returns its id (ids count up from 0).
    pub fn register(&self, name: &str) -> usize {
        let mut names = self.names.lock().unwrap();
        names.push(name.to_string());
        names.len() - 1
    }

    pub fn name(&self, id: usize) -> Option<String> {
        self.names.lock().unwrap().get(id).cloned()
    }

    pub fn len(&self) -> usize {
        self.names.lock().unwrap().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The longest registered name (the first of equally long ones).
    pub fn longest_name(&self) -> Option<String> {
        let names = self.names.lock().unwrap();
        let mut best: Option<&String> = None;
        for name in names.iter() {
            match best {
                Some(b) if b.len() >= name.len() => {}
                _ => best = Some(name),
            }
        }
        best.cloned()
    }
}
