// Task: implement the `Shape` trait from `crate::shape` for `Polygon`:
// area by the shoelace formula (always non-negative, whatever the vertex
// order; 0 with fewer than 3 vertices), perimeter as the length of the closed
// ring through all vertices (0 with fewer than 2), and the bounding box of
// the vertices (None when there are none).
use crate::point::Point;
use crate::shape::{BoundingBox, Shape};

/// A simple polygon given by its vertices in order (the ring closes itself).
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    pub vertices: Vec<Point>,
}

impl Polygon {
    pub fn new(vertices: Vec<Point>) -> Polygon {
        Polygon { vertices }
    }

    /// Each edge of the closed ring as (from, to).
    fn edges(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| (self.vertices[i], self.vertices[(i + 1) % n]))
    }
}

impl Shape for Polygon {
    fn area(&self) -> f64 {
        if self.vertices.len() < 3 {
            return 0.0;
        }
        let twice: f64 = self.edges().map(|(a, b)| a.x * b.y - b.x * a.y).sum();
        twice.abs() / 2.0
    }

    fn perimeter(&self) -> f64 {
        if self.vertices.len() < 2 {
            return 0.0;
        }
        self.edges().map(|(a, b)| a.distance(b)).sum()
    }

    fn bounding_box(&self) -> Option<BoundingBox> {
        let first = *self.vertices.first()?;
        let mut bb = BoundingBox { min: first, max: first };
        for p in &self.vertices[1..] {
            bb.min.x = bb.min.x.min(p.x);
            bb.min.y = bb.min.y.min(p.y);
            bb.max.x = bb.max.x.max(p.x);
            bb.max.y = bb.max.y.max(p.y);
        }
        Some(bb)
    }
}
