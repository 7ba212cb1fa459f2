use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn circle_perimeter() {
    assert!(close(Shape::Circle { radius: 1.0 }.perimeter(), 2.0 * std::f64::consts::PI));
    assert!(close(Shape::Circle { radius: 0.0 }.perimeter(), 0.0));
}

#[test]
fn rectangle_perimeter() {
    assert!(close(Shape::Rect { width: 3.0, height: 4.0 }.perimeter(), 14.0));
    assert!(close(Shape::Rect { width: 2.5, height: 0.0 }.perimeter(), 5.0));
}

#[test]
fn right_triangle_perimeter_includes_the_hypotenuse() {
    assert!(close(Shape::RightTriangle { a: 3.0, b: 4.0 }.perimeter(), 12.0));
    assert!(close(Shape::RightTriangle { a: 1.0, b: 1.0 }.perimeter(), 2.0 + 2f64.sqrt()));
}

#[test]
fn area_is_unchanged() {
    assert!(close(Shape::RightTriangle { a: 3.0, b: 4.0 }.area(), 6.0));
}
