// Task: replace the unit strings with an enum `Unit` (variants Celsius,
// Fahrenheit, Kelvin; derive Debug, Clone, Copy, PartialEq, Eq) implementing
// `FromStr` for "C", "F" and "K" (Err(()) otherwise). `convert` must take
// `from: Unit, to: Unit` and return a plain f64, and `parse_reading` must
// return `Result<(f64, Unit), String>` (the String says what was wrong).

fn to_kelvin(value: f64, unit: &str) -> Option<f64> {
    match unit {
        "C" => Some(value + 273.15),
        "F" => Some((value - 32.0) * 5.0 / 9.0 + 273.15),
        "K" => Some(value),
        _ => None,
    }
}

pub fn convert(value: f64, from: &str, to: &str) -> Option<f64> {
    let k = to_kelvin(value, from)?;
    match to {
        "C" => Some(k - 273.15),
        "F" => Some((k - 273.15) * 9.0 / 5.0 + 32.0),
        "K" => Some(k),
        _ => None,
    }
}

/// Parses readings such as "21.5C", "-4F" or "300K".
pub fn parse_reading(text: &str) -> Option<(f64, String)> {
    let text = text.trim();
    if text.len() < 2 {
        return None;
    }
    let (num, unit) = text.split_at(text.len() - 1);
    to_kelvin(0.0, unit)?;
    let value: f64 = num.parse().ok()?;
    Some((value, unit.to_string()))
}
