// Task: implement the histogram on top of `crate::buckets::Buckets`.
// `Histogram::new(buckets)` starts empty. `record(ms)` counts the sample in
// its bucket, or in `overflow()` when it exceeds the last bound. `count()` is
// the number of samples recorded (overflow included) and `counts()` the
// per-bucket counts. `percentile(p)` for p in 1..=100 returns the bound of
// the bucket holding the sample of rank ceil(p * count / 100) (1-based,
// samples in ascending order), None if that sample overflowed, and None
// when there are no samples.
use crate::buckets::Buckets;

pub struct Histogram {
    buckets: Buckets,
    counts: Vec<u64>,
    overflow: u64,
}

impl Histogram {
    pub fn new(buckets: Buckets) -> Histogram {
        let counts = vec![0; buckets.bounds().len()];
        Histogram { buckets, counts, overflow: 0 }
    }

    pub fn record(&mut self, ms: u32) {
        match self.buckets.index_of(ms) {
            Some(i) => self.counts[i] += 1,
            None => self.overflow += 1,
        }
    }

    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    pub fn overflow(&self) -> u64 {
        self.overflow
    }

    pub fn count(&self) -> u64 {
        self.counts.iter().sum::<u64>() + self.overflow
    }

    pub fn percentile(&self, p: u32) -> Option<u32> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let rank = (u64::from(p) * total + 99) / 100;
        let mut seen = 0;
        for (&c, &bound) in self.counts.iter().zip(self.buckets.bounds()) {
            seen += c;
            if seen >= rank {
                return Some(bound);
            }
        }
        None
    }
}
