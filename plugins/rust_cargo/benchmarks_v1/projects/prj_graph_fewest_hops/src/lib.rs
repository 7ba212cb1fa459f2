//! Routing over a directed network of sites.
pub mod graph;
pub mod route;
