/// One layer of settings; `None` means "not set in this layer".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    pub listen: Option<String>,
    pub workers: Option<u32>,
    pub debug: Option<bool>,
    /// Plugins to load, in order.
    pub plugins: Vec<String>,
}

/// The fully resolved configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub listen: String,
    pub workers: u32,
    pub debug: bool,
    pub plugins: Vec<String>,
}

impl Resolved {
    pub const DEFAULT_LISTEN: &'static str = "127.0.0.1:8000";
    pub const DEFAULT_WORKERS: u32 = 4;
}
