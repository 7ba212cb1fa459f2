use crate::merge::{merge, resolve};
use crate::settings::{Resolved, Settings};

fn plugins(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn overlay_wins_for_set_fields() {
    let base = Settings { listen: Some("0.0.0.0:80".to_string()), workers: Some(8), debug: Some(true), plugins: vec![] };
    let overlay = Settings { workers: Some(2), debug: Some(false), ..Settings::default() };
    let m = merge(&base, &overlay);
    assert_eq!(m.listen.as_deref(), Some("0.0.0.0:80"));
    assert_eq!(m.workers, Some(2));
    assert_eq!(m.debug, Some(false));
}

#[test]
fn plugins_are_concatenated_without_duplicates() {
    let base = Settings { plugins: plugins(&["auth", "gzip", "auth"]), ..Settings::default() };
    let overlay = Settings { plugins: plugins(&["metrics", "gzip"]), ..Settings::default() };
    assert_eq!(merge(&base, &overlay).plugins, plugins(&["auth", "gzip", "metrics"]));
}

#[test]
fn resolve_uses_defaults() {
    let r = resolve(&[]);
    assert_eq!(
        r,
        Resolved { listen: Resolved::DEFAULT_LISTEN.to_string(), workers: Resolved::DEFAULT_WORKERS, debug: false, plugins: vec![] }
    );
}

#[test]
fn later_layers_have_priority() {
    let file = Settings { listen: Some("10.0.0.1:9000".to_string()), workers: Some(16), debug: None, plugins: plugins(&["a"]) };
    let env = Settings { workers: Some(6), ..Settings::default() };
    let cli = Settings { debug: Some(true), plugins: plugins(&["b", "a"]), ..Settings::default() };
    let r = resolve(&[file, env, cli]);
    assert_eq!(r.listen, "10.0.0.1:9000");
    assert_eq!(r.workers, 6);
    assert!(r.debug);
    assert_eq!(r.plugins, plugins(&["a", "b"]));
}

#[test]
fn merge_does_not_touch_inputs() {
    let base = Settings { workers: Some(1), ..Settings::default() };
    let overlay = Settings::default();
    let m = merge(&base, &overlay);
    assert_eq!(m, base);
    assert_eq!(overlay, Settings::default());
}
