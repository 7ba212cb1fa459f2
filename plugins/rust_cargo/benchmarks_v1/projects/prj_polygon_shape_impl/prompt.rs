// Task: implement the `Shape` trait from `crate::shape` for `Polygon`:
// area by the shoelace formula (always non-negative, whatever the vertex
// order; 0 with fewer than 3 vertices), perimeter as the length of the closed
// ring through all vertices (0 with fewer than 2), and the bounding box of
// the vertices (None when there are none).
use crate::point::Point;

/// A simple polygon given by its vertices in order (the ring closes itself).
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    pub vertices: Vec<Point>,
}

impl Polygon {
    pub fn new(vertices: Vec<Point>) -> Polygon {
        Polygon { vertices }
    }
}
