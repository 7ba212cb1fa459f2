use crate::point::Point;

/// An axis-aligned rectangle given by its lower-left and upper-right corners.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundingBox {
    pub min: Point,
    pub max: Point,
}

pub trait Shape {
    fn area(&self) -> f64;
    fn perimeter(&self) -> f64;
    /// None for a shape without points.
    fn bounding_box(&self) -> Option<BoundingBox>;
}
