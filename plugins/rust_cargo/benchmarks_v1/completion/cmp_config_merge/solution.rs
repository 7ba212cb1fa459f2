/// Server settings after all configuration layers are merged.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub host: String,
    pub port: u16,
    pub workers: usize,
    pub allowed_origins: Vec<String>,
    pub verbose: bool,
}

/// One layer of overrides (from a file or the command line). `None` keeps the
/// base value.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub host: Option<String>,
    pub port: Option<u16>,
    /// A worker count of 0 is ignored.
    pub workers: Option<usize>,
    /// Origins are appended to the base list, skipping any already present.
    pub extra_origins: Vec<String>,
    pub verbose: Option<bool>,
}

/// Applies `over` on top of `base` and returns the merged configuration.
pub fn merge(base: &Config, over: &Overrides) -> Config {
    let mut allowed_origins = base.allowed_origins.clone();
    for origin in &over.extra_origins {
        if !allowed_origins.contains(origin) {
            allowed_origins.push(origin.clone());
        }
    }
    Config {
        host: over.host.clone().unwrap_or_else(|| base.host.clone()),
        port: over.port.unwrap_or(base.port),
        workers: over.workers.filter(|&w| w > 0).unwrap_or(base.workers),
        allowed_origins,
        verbose: over.verbose.unwrap_or(base.verbose),
    }
}
