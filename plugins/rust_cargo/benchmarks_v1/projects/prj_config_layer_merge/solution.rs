// Task: implement the two functions.
// `merge(base, overlay)`: every scalar field set in `overlay` replaces the
// one in `base`; plugins are base's followed by overlay's, keeping only the
// first occurrence of each name.
// `resolve(layers)`: merges the layers from first (lowest priority) to last
// and fills fields still unset from the defaults in `Resolved`
// (DEFAULT_LISTEN, DEFAULT_WORKERS, debug false).
use crate::settings::{Resolved, Settings};

pub fn merge(base: &Settings, overlay: &Settings) -> Settings {
    let mut plugins: Vec<String> = Vec::new();
    for p in base.plugins.iter().chain(&overlay.plugins) {
        if !plugins.contains(p) {
            plugins.push(p.clone());
        }
    }
    Settings {
        listen: overlay.listen.clone().or_else(|| base.listen.clone()),
        workers: overlay.workers.or(base.workers),
        debug: overlay.debug.or(base.debug),
        plugins,
    }
}

pub fn resolve(layers: &[Settings]) -> Resolved {
    let merged = layers.iter().fold(Settings::default(), |acc, layer| merge(&acc, layer));
    Resolved {
        listen: merged.listen.unwrap_or_else(|| Resolved::DEFAULT_LISTEN.to_string()),
        workers: merged.workers.unwrap_or(Resolved::DEFAULT_WORKERS),
        debug: merged.debug.unwrap_or(false),
        plugins: merged.plugins,
    }
}
