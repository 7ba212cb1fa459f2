use std::f64::consts::PI;

/// A floor-plan shape; lengths in metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    Circle { radius: f64 },
    Rect { width: f64, height: f64 },
    /// A right triangle given by its two legs.
    RightTriangle { a: f64, b: f64 },
}

impl Shape {
    /// The area in square metres.
    pub fn area(&self) -> f64 {
        match *self {
            Shape::Circle { radius } => PI * radius * radius,
            Shape::Rect { width, height } => width * height,
            Shape::RightTriangle { a, b } => a * b / 2.0,
        }
    }

    /// The length of the boundary in metres.
    pub fn perimeter(&self) -> f64 {
        match *self {
            Shape::Circle { radius } => 2.0 * PI * radius,
            Shape::Rect { width, height } => 2.0 * (width + height),
            Shape::RightTriangle { a, b } => a + b + a.hypot(b),
        }
    }
}
