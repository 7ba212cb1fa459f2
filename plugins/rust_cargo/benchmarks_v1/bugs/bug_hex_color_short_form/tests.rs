use super::*;

#[test]
fn long_form() {
    assert_eq!(parse_color("#1a2B3c"), Some(Rgb { r: 0x1a, g: 0x2b, b: 0x3c }));
}

#[test]
fn short_form_doubles_each_digit() {
    assert_eq!(parse_color("#f80"), Some(Rgb { r: 0xff, g: 0x88, b: 0x00 }));
    assert_eq!(parse_color("#FFF"), Some(Rgb { r: 255, g: 255, b: 255 }));
}

#[test]
fn round_trip_through_hex() {
    assert_eq!(parse_color("#09c").map(|c| c.to_hex()), Some("#0099cc".to_string()));
    assert_eq!(parse_color("#ABCDEF").map(|c| c.to_hex()), Some("#abcdef".to_string()));
}

#[test]
fn malformed_colours() {
    for s in ["fff", "#ff", "#ffff", "#12345g", "#", "", "#1234567"] {
        assert_eq!(parse_color(s), None, "{}", s);
    }
}
