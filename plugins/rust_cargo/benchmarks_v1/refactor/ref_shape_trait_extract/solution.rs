// Task: extract a trait `Shape` with the methods `fn area(&self) -> f64`,
// `fn perimeter(&self) -> f64` and `fn name(&self) -> &'static str`, implement
// it for Circle, Rect and Triangle, and replace the `Figure` enum: `total_area`
// and `largest` must take `&[Box<dyn Shape>]` (largest returns the index of the
// shape with the greatest area, the first one on ties, None when empty).
use std::f64::consts::PI;

pub trait Shape {
    fn area(&self) -> f64;
    fn perimeter(&self) -> f64;
    fn name(&self) -> &'static str;
}

pub struct Circle {
    pub r: f64,
}

pub struct Rect {
    pub w: f64,
    pub h: f64,
}

/// A triangle given by its three side lengths.
pub struct Triangle {
    pub a: f64,
    pub b: f64,
    pub c: f64,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        PI * self.r * self.r
    }

    fn perimeter(&self) -> f64 {
        2.0 * PI * self.r
    }

    fn name(&self) -> &'static str {
        "circle"
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.w * self.h
    }

    fn perimeter(&self) -> f64 {
        2.0 * (self.w + self.h)
    }

    fn name(&self) -> &'static str {
        "rect"
    }
}

impl Shape for Triangle {
    fn area(&self) -> f64 {
        let s = (self.a + self.b + self.c) / 2.0;
        (s * (s - self.a) * (s - self.b) * (s - self.c)).sqrt()
    }

    fn perimeter(&self) -> f64 {
        self.a + self.b + self.c
    }

    fn name(&self) -> &'static str {
        "triangle"
    }
}

pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

pub fn largest(shapes: &[Box<dyn Shape>]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, s) in shapes.iter().enumerate() {
        let a = s.area();
        match best {
            Some((_, b)) if b >= a => {}
            _ => best = Some((i, a)),
        }
    }
    best.map(|(i, _)| i)
}
