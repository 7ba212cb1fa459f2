use crate::buckets::Buckets;
use crate::histogram::Histogram;

fn hist(samples: &[u32]) -> Histogram {
    let mut h = Histogram::new(Buckets::new(vec![10, 50, 100, 500]).unwrap());
    for &s in samples {
        h.record(s);
    }
    h
}

#[test]
fn samples_land_in_buckets() {
    let h = hist(&[0, 10, 11, 50, 99, 100, 101, 500, 501, 9_999]);
    assert_eq!(h.counts(), &[2, 2, 2, 2][..]);
    assert_eq!(h.overflow(), 2);
    assert_eq!(h.count(), 10);
}

#[test]
fn percentiles_use_bucket_bounds() {
    let h = hist(&[5, 5, 5, 5, 20, 20, 20, 80, 80, 300]);
    assert_eq!(h.percentile(40), Some(10));
    assert_eq!(h.percentile(41), Some(50));
    assert_eq!(h.percentile(50), Some(50));
    assert_eq!(h.percentile(90), Some(100));
    assert_eq!(h.percentile(100), Some(500));
    assert_eq!(h.percentile(1), Some(10));
}

#[test]
fn overflowed_rank_gives_none() {
    let h = hist(&[1, 1_000]);
    assert_eq!(h.percentile(50), Some(10));
    assert_eq!(h.percentile(51), None);
}

#[test]
fn empty_histogram() {
    let h = hist(&[]);
    assert_eq!(h.count(), 0);
    assert_eq!(h.percentile(50), None);
    assert_eq!(h.counts(), &[0, 0, 0, 0][..]);
}
