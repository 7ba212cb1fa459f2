#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Low,
    Normal,
    High,
    Critical,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub name: String,
    pub priority: Priority,
    /// Abstract work units.
    pub cost: u32,
}

impl Job {
    pub fn new(name: &str, priority: Priority, cost: u32) -> Job {
        Job { name: name.to_string(), priority, cost }
    }
}
