/// A fixed-size buffer of the most recent samples; when it is full, a push
/// overwrites the oldest sample. `head` is the slot of the oldest sample.
pub struct RingBuffer<T> {
    slots: Vec<Option<T>>,
    head: usize,
    len: usize,
}

impl<T: Clone> RingBuffer<T> {
    /// A buffer for `capacity` samples; panics when `capacity` is 0.
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0, "capacity must be positive");
        RingBuffer { slots: vec![None; capacity], head: 0, len: 0 }
    }

    /// Appends `value` as the newest sample. Returns the overwritten oldest
    /// sample when the buffer was full.
    pub fn push(&mut self, value: T) -> Option<T> {
        let capacity = self.slots.len();
        if self.len < capacity {
            self.slots[(self.head + self.len) % capacity] = Some(value);
            self.len += 1;
            None
        } else {
            let oldest = self.slots[self.head].replace(value);
            self.head = (self.head + 1) % capacity;
            oldest
        }
    }

    /// The samples from oldest to newest.
    pub fn to_vec(&self) -> Vec<T> {
        (0..self.len)
            .filter_map(|i| self.slots[(self.head + i) % self.slots.len()].clone())
            .collect()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
