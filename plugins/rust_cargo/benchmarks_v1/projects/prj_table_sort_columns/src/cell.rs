use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Empty,
    Int(i64),
    Text(String),
}

impl Cell {
    /// Total order used for sorting: Empty < every Int < every Text;
    /// Ints by value, Texts by byte order.
    pub fn compare(&self, other: &Cell) -> Ordering {
        fn rank(c: &Cell) -> u8 {
            match c {
                Cell::Empty => 0,
                Cell::Int(_) => 1,
                Cell::Text(_) => 2,
            }
        }
        match (self, other) {
            (Cell::Int(a), Cell::Int(b)) => a.cmp(b),
            (Cell::Text(a), Cell::Text(b)) => a.cmp(b),
            _ => rank(self).cmp(&rank(other)),
        }
    }
}
