use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn parses_units() {
    assert_eq!("C".parse::<Unit>(), Ok(Unit::Celsius));
    assert_eq!("F".parse::<Unit>(), Ok(Unit::Fahrenheit));
    assert_eq!("K".parse::<Unit>(), Ok(Unit::Kelvin));
    assert_eq!("c".parse::<Unit>(), Err(()));
}

#[test]
fn converts_between_units() {
    assert!(close(convert(100.0, Unit::Celsius, Unit::Fahrenheit), 212.0));
    assert!(close(convert(32.0, Unit::Fahrenheit, Unit::Kelvin), 273.15));
    assert!(close(convert(0.0, Unit::Kelvin, Unit::Celsius), -273.15));
    assert!(close(convert(-40.0, Unit::Fahrenheit, Unit::Celsius), -40.0));
}

#[test]
fn parses_readings() {
    assert_eq!(parse_reading(" 21.5C "), Ok((21.5, Unit::Celsius)));
    assert_eq!(parse_reading("-4F"), Ok((-4.0, Unit::Fahrenheit)));
    assert_eq!(parse_reading("300K"), Ok((300.0, Unit::Kelvin)));
}

#[test]
fn bad_readings_are_errors() {
    assert!(parse_reading("").is_err());
    assert!(parse_reading("C").is_err());
    assert!(parse_reading("21.5X").is_err());
    assert!(parse_reading("abcK").is_err());
    assert!(parse_reading("21°").is_err());
}
