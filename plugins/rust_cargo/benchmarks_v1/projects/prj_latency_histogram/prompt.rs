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
}
