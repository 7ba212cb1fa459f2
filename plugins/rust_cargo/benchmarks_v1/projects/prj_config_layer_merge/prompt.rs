// Task: implement the two functions.
// `merge(base, overlay)`: every scalar field set in `overlay` replaces the
// one in `base`; plugins are base's followed by overlay's, keeping only the
// first occurrence of each name.
// `resolve(layers)`: merges the layers from first (lowest priority) to last
// and fills fields still unset from the defaults in `Resolved`
// (DEFAULT_LISTEN, DEFAULT_WORKERS, debug false).
use crate::settings::{Resolved, Settings};

pub fn merge(base: &Settings, overlay: &Settings) -> Settings {
    unimplemented!()
}

pub fn resolve(layers: &[Settings]) -> Resolved {
    unimplemented!()
}
