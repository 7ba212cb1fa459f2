use super::*;

#[test]
fn parses_the_long_form_in_any_case() {
    assert_eq!(Rgb::parse("#1a2B3c"), Some(Rgb { r: 0x1a, g: 0x2b, b: 0x3c }));
    assert_eq!(Rgb::parse("#000000"), Some(Rgb { r: 0, g: 0, b: 0 }));
}

#[test]
fn parses_the_short_form() {
    assert_eq!(Rgb::parse("#fff"), Some(Rgb { r: 255, g: 255, b: 255 }));
    assert_eq!(Rgb::parse("#0A8"), Some(Rgb { r: 0x00, g: 0xaa, b: 0x88 }));
}

#[test]
fn rejects_malformed_colours() {
    for bad in ["123456", "#12345", "#ggg000", "#1234567", "", "#", "#12", "#+12345", "#ab cd"] {
        assert_eq!(Rgb::parse(bad), None, "{}", bad);
    }
}

#[test]
fn display_round_trips() {
    assert_eq!(Rgb::parse("#ABCDEF").unwrap().to_string(), "#abcdef");
    assert_eq!(Rgb::parse("#f80").unwrap().to_string(), "#ff8800");
}
