use super::*;

fn base() -> Config {
    Config {
        host: "0.0.0.0".to_string(),
        port: 8080,
        workers: 4,
        allowed_origins: vec!["https://a.example".to_string()],
        verbose: false,
    }
}

#[test]
fn empty_overrides_keep_the_base() {
    assert_eq!(merge(&base(), &Overrides::default()), base());
}

#[test]
fn every_override_applies() {
    let over = Overrides {
        host: Some("127.0.0.1".to_string()),
        port: Some(9000),
        workers: Some(16),
        extra_origins: vec!["https://b.example".to_string()],
        verbose: Some(true),
    };
    let expected = Config {
        host: "127.0.0.1".to_string(),
        port: 9000,
        workers: 16,
        allowed_origins: vec!["https://a.example".to_string(), "https://b.example".to_string()],
        verbose: true,
    };
    assert_eq!(merge(&base(), &over), expected);
}

#[test]
fn zero_workers_is_ignored() {
    let over = Overrides { workers: Some(0), port: Some(1), ..Overrides::default() };
    let merged = merge(&base(), &over);
    assert_eq!(merged.workers, 4);
    assert_eq!(merged.port, 1);
}

#[test]
fn verbose_false_overrides_true() {
    let mut b = base();
    b.verbose = true;
    let over = Overrides { verbose: Some(false), ..Overrides::default() };
    assert!(!merge(&b, &over).verbose);
}

#[test]
fn origins_are_not_duplicated() {
    let over = Overrides {
        extra_origins: vec!["https://a.example".to_string(), "https://c.example".to_string()],
        ..Overrides::default()
    };
    assert_eq!(
        merge(&base(), &over).allowed_origins,
        vec!["https://a.example".to_string(), "https://c.example".to_string()]
    );
}
