// Task: extract a trait `Shape` with the methods `fn area(&self) -> f64`,
// `fn perimeter(&self) -> f64` and `fn name(&self) -> &'static str`, implement
// it for Circle, Rect and Triangle, and replace the `Figure` enum: `total_area`
// and `largest` must take `&[Box<dyn Shape>]` (largest returns the index of the
// shape with the greatest area, the first one on ties, None when empty).
use std::f64::consts::PI;

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

pub enum Figure {
    Circle(Circle),
    Rect(Rect),
    Triangle(Triangle),
}

pub fn area(f: &Figure) -> f64 {
    match f {
        Figure::Circle(c) => PI * c.r * c.r,
        Figure::Rect(r) => r.w * r.h,
        Figure::Triangle(t) => {
            let s = (t.a + t.b + t.c) / 2.0;
            (s * (s - t.a) * (s - t.b) * (s - t.c)).sqrt()
        }
    }
}

pub fn perimeter(f: &Figure) -> f64 {
    match f {
        Figure::Circle(c) => 2.0 * PI * c.r,
        Figure::Rect(r) => 2.0 * (r.w + r.h),
        Figure::Triangle(t) => t.a + t.b + t.c,
    }
}

pub fn name(f: &Figure) -> &'static str {
    match f {
        Figure::Circle(_) => "circle",
        Figure::Rect(_) => "rect",
        Figure::Triangle(_) => "triangle",
    }
}

pub fn total_area(figures: &[Figure]) -> f64 {
    let mut sum = 0.0;
    for f in figures {
        sum += area(f);
    }
    sum
}

pub fn largest(figures: &[Figure]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, f) in figures.iter().enumerate() {
        match best {
            Some(b) if area(&figures[b]) >= area(f) => {}
            _ => best = Some(i),
        }
    }
    best
}
