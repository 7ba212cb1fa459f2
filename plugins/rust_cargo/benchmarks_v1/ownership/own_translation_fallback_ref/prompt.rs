// Task: `Translations` looks up user-interface texts by locale, falling back
// as the doc comment of `text` says. The file does not compile. Fix it and
// return the whole corrected file.
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct Translations {
    table: HashMap<String, HashMap<String, String>>,
}

impl Translations {
    pub fn new() -> Translations {
        Translations::default()
    }

    pub fn add(&mut self, locale: &str, key: &str, text: &str) {
        self.table.entry(locale.to_string()).or_default().insert(key.to_string(), text.to_string());
    }

    fn lookup(&self, locale: &str, key: &str) -> Option<&str> {
        self.table.get(locale)?.get(key).map(|s| s.as_str())
    }

    /// The text of `key` for `locale` ("de-AT"), else for its language
    /// ("de"), else for "en"; if none exists, the text "(untranslated)".
    pub fn text(&self, locale: &str, key: &str) -> &str {
        let language = locale.split('-').next().unwrap_or(locale);
        for candidate in [locale, language, "en"] {
            if let Some(text) = self.lookup(candidate, key) {
                return text;
            }
        }
        &String::from("(untranslated)")
    }
}
