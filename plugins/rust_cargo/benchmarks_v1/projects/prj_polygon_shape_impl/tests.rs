use crate::point::Point;
use crate::polygon::Polygon;
use crate::shape::{BoundingBox, Shape};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn poly(pts: &[(f64, f64)]) -> Polygon {
    Polygon::new(pts.iter().map(|&(x, y)| Point::new(x, y)).collect())
}

#[test]
fn rectangle_area_and_perimeter() {
    let p = poly(&[(0.0, 0.0), (4.0, 0.0), (4.0, 3.0), (0.0, 3.0)]);
    assert!(close(p.area(), 12.0));
    assert!(close(p.perimeter(), 14.0));
}

#[test]
fn area_ignores_orientation() {
    let cw = poly(&[(0.0, 0.0), (0.0, 3.0), (4.0, 0.0)]);
    assert!(close(cw.area(), 6.0));
    assert!(close(cw.perimeter(), 12.0));
}

#[test]
fn concave_polygon() {
    // an L shape: 2x2 square minus a 1x1 corner
    let p = poly(&[(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)]);
    assert!(close(p.area(), 3.0));
    assert!(close(p.perimeter(), 8.0));
}

#[test]
fn degenerate_polygons() {
    assert!(close(poly(&[]).area(), 0.0));
    assert!(close(poly(&[(1.0, 1.0)]).perimeter(), 0.0));
    let seg = poly(&[(0.0, 0.0), (3.0, 4.0)]);
    assert!(close(seg.area(), 0.0));
    assert!(close(seg.perimeter(), 10.0));
}

#[test]
fn bounding_box() {
    assert_eq!(poly(&[]).bounding_box(), None);
    let p = poly(&[(1.0, -2.0), (-3.0, 5.0), (0.5, 0.0)]);
    assert_eq!(p.bounding_box(), Some(BoundingBox { min: Point::new(-3.0, -2.0), max: Point::new(1.0, 5.0) }));
}

#[test]
fn usable_as_trait_object() {
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(poly(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]))];
    assert!(close(shapes[0].area(), 0.5));
}
