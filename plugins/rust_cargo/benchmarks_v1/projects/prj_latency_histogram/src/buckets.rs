/// Upper bounds (inclusive, in milliseconds) of the histogram buckets,
/// strictly increasing. A sample belongs to the first bucket whose bound is
/// >= the sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Buckets {
    bounds: Vec<u32>,
}

impl Buckets {
    /// None unless the bounds are non-empty and strictly increasing.
    pub fn new(bounds: Vec<u32>) -> Option<Buckets> {
        if bounds.is_empty() || bounds.windows(2).any(|w| w[0] >= w[1]) {
            return None;
        }
        Some(Buckets { bounds })
    }

    pub fn bounds(&self) -> &[u32] {
        &self.bounds
    }

    /// The bucket index for a sample, or None if it exceeds the last bound.
    pub fn index_of(&self, sample_ms: u32) -> Option<usize> {
        let i = self.bounds.partition_point(|&b| b < sample_ms);
        if i < self.bounds.len() {
            Some(i)
        } else {
            None
        }
    }
}
