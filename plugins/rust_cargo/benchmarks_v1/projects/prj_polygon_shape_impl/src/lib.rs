//! Planar geometry: points, a shape trait and polygons.
pub mod point;
pub mod polygon;
pub mod shape;
