/// A fixed-capacity set of small integers stored as bits in `u64` words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
    capacity: usize,
}

impl BitSet {
    /// An empty set able to hold `0..capacity`.
    pub fn new(capacity: usize) -> Self {
        BitSet { words: vec![0; (capacity + 63) / 64], capacity }
    }

    /// Adds `i`; returns false (changing nothing) when `i` is out of range.
    pub fn insert(&mut self, i: usize) -> bool {
        if i >= self.capacity {
            return false;
        }
        self.words[i / 64] |= 1 << (i % 64);
        true
    }

    pub fn contains(&self, i: usize) -> bool {
        i < self.capacity && self.words[i / 64] & (1 << (i % 64)) != 0
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The elements present in both sets; its capacity is the smaller of the
    /// two capacities.
    pub fn intersection(&self, other: &BitSet) -> BitSet {
        let capacity = self.capacity.min(other.capacity);
        let words = self
            .words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| a & b)
            .collect();
        BitSet { words, capacity }
    }
}
