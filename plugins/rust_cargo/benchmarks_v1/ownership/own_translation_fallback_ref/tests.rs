use super::*;

fn table() -> Translations {
    let mut t = Translations::new();
    t.add("en", "save", "Save");
    t.add("en", "quit", "Quit");
    t.add("de", "save", "Speichern");
    t.add("de-AT", "quit", "Beenden (AT)");
    t
}

#[test]
fn exact_locale_wins() {
    assert_eq!(table().text("de-AT", "quit"), "Beenden (AT)");
}

#[test]
fn falls_back_to_language_then_english() {
    let t = table();
    assert_eq!(t.text("de-AT", "save"), "Speichern");
    assert_eq!(t.text("de", "quit"), "Quit");
    assert_eq!(t.text("fr", "save"), "Save");
}

#[test]
fn missing_everywhere() {
    let t = table();
    assert_eq!(t.text("de", "help"), "(untranslated)");
    assert_eq!(Translations::new().text("en", "x"), "(untranslated)");
}

#[test]
fn texts_borrow_from_the_table() {
    let t = table();
    let key = String::from("save");
    let text = t.text("de", &key);
    drop(key);
    assert_eq!(text, "Speichern");
}
