/// A half-open span of minutes since midnight: [start, end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Interval {
    pub start: u32,
    pub end: u32,
}

impl Interval {
    /// None when end <= start.
    pub fn new(start: u32, end: u32) -> Option<Interval> {
        if end > start {
            Some(Interval { start, end })
        } else {
            None
        }
    }

    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    pub fn overlaps(&self, other: &Interval) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// The part of `self` inside `bounds`, if any.
    pub fn clamp_to(&self, bounds: &Interval) -> Option<Interval> {
        Interval::new(self.start.max(bounds.start), self.end.min(bounds.end))
    }
}
