// Task: `histogram` bins latency measurements for a dashboard, as its doc
// comment says. The code compiles but has a bug. Fix it and return the whole
// corrected file.

/// Counts `values` into `buckets` equal-width buckets covering [min, max].
/// With w = (max - min) / buckets, bucket i covers [min + i*w, min + (i+1)*w);
/// the value `max` itself belongs to the last bucket. Values outside
/// [min, max] are ignored. With zero buckets, or max <= min, nothing is counted.
pub fn histogram(values: &[f64], min: f64, max: f64, buckets: usize) -> Vec<usize> {
    let mut counts = vec![0; buckets];
    if buckets == 0 || max <= min {
        return counts;
    }
    let width = (max - min) / buckets as f64;
    for &v in values {
        if v < min || v > max {
            continue;
        }
        let idx = (((v - min) / width) as usize).min(buckets - 1);
        counts[idx] += 1;
    }
    counts
}
