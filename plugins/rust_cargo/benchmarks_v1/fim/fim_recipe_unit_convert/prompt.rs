/// Units used in recipes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Gram,
    Kilogram,
    Millilitre,
    Litre,
    Piece,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConvertError {
    Incompatible(Unit, Unit),
}

/// Converts `amount` from one unit to another. Mass converts to mass
/// (1 kg = 1000 g), volume to volume (1 l = 1000 ml), pieces only to pieces
/// and every unit to itself; anything else is `Incompatible(from, to)`.
pub fn convert(amount: f64, from: Unit, to: Unit) -> Result<f64, ConvertError> {
    use Unit::*;
    let factor = match (from, to) {
        (a, b) if a == b => 1.0,
        (Kilogram, Gram) | (Litre, Millilitre) => 1000.0,
        /*FILL*/
    };
    Ok(amount * factor)
}
