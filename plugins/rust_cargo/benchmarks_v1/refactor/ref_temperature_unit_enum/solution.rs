// Task: replace the unit strings with an enum `Unit` (variants Celsius,
// Fahrenheit, Kelvin; derive Debug, Clone, Copy, PartialEq, Eq) implementing
// `FromStr` for "C", "F" and "K" (Err(()) otherwise). `convert` must take
// `from: Unit, to: Unit` and return a plain f64, and `parse_reading` must
// return `Result<(f64, Unit), String>` (the String says what was wrong).
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Celsius,
    Fahrenheit,
    Kelvin,
}

impl FromStr for Unit {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "C" => Ok(Unit::Celsius),
            "F" => Ok(Unit::Fahrenheit),
            "K" => Ok(Unit::Kelvin),
            _ => Err(()),
        }
    }
}

impl Unit {
    fn to_kelvin(self, value: f64) -> f64 {
        match self {
            Unit::Celsius => value + 273.15,
            Unit::Fahrenheit => (value - 32.0) * 5.0 / 9.0 + 273.15,
            Unit::Kelvin => value,
        }
    }

    fn kelvin_to_unit(self, k: f64) -> f64 {
        match self {
            Unit::Celsius => k - 273.15,
            Unit::Fahrenheit => (k - 273.15) * 9.0 / 5.0 + 32.0,
            Unit::Kelvin => k,
        }
    }
}

pub fn convert(value: f64, from: Unit, to: Unit) -> f64 {
    to.kelvin_to_unit(from.to_kelvin(value))
}

/// Parses readings such as "21.5C", "-4F" or "300K".
pub fn parse_reading(text: &str) -> Result<(f64, Unit), String> {
    let text = text.trim();
    let last = text.chars().last().ok_or_else(|| "empty reading".to_string())?;
    let (num, unit) = text.split_at(text.len() - last.len_utf8());
    let unit: Unit = unit.parse().map_err(|_| format!("unknown unit: {}", unit))?;
    let value: f64 = num.parse().map_err(|_| format!("invalid number: {}", num))?;
    Ok((value, unit))
}
