use super::*;

fn close(r: Result<f64, ConvertError>, expected: f64) -> bool {
    matches!(r, Ok(v) if (v - expected).abs() < 1e-9)
}

#[test]
fn scales_up_and_down() {
    assert!(close(convert(1.5, Unit::Kilogram, Unit::Gram), 1500.0));
    assert!(close(convert(250.0, Unit::Millilitre, Unit::Litre), 0.25));
    assert!(close(convert(1500.0, Unit::Gram, Unit::Kilogram), 1.5));
    assert!(close(convert(2.0, Unit::Litre, Unit::Millilitre), 2000.0));
}

#[test]
fn same_unit_is_identity() {
    assert!(close(convert(42.0, Unit::Gram, Unit::Gram), 42.0));
    assert!(close(convert(3.0, Unit::Piece, Unit::Piece), 3.0));
}

#[test]
fn mass_and_volume_do_not_mix() {
    assert_eq!(convert(1.0, Unit::Kilogram, Unit::Litre), Err(ConvertError::Incompatible(Unit::Kilogram, Unit::Litre)));
    assert_eq!(convert(1.0, Unit::Millilitre, Unit::Gram), Err(ConvertError::Incompatible(Unit::Millilitre, Unit::Gram)));
}

#[test]
fn pieces_only_convert_to_pieces() {
    assert_eq!(convert(2.0, Unit::Piece, Unit::Gram), Err(ConvertError::Incompatible(Unit::Piece, Unit::Gram)));
    assert_eq!(convert(2.0, Unit::Litre, Unit::Piece), Err(ConvertError::Incompatible(Unit::Litre, Unit::Piece)));
}
