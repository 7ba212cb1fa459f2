use super::*;

#[test]
fn fixed_window_through_the_trait() {
    let mut l = FixedWindow::new(2, 1000);
    let times = [0, 10, 20, 999, 1000, 1001, 1002];
    assert_eq!(count_allowed(&mut l, &times), 4);
}

#[test]
fn sliding_log_through_the_trait() {
    let mut l = SlidingLog::new(2, 1000);
    let times = [0, 500, 999, 1000, 1499, 1500];
    // accepted: 0, 500, 1000, 1500
    assert_eq!(count_allowed(&mut l, &times), 4);
}

#[test]
fn limiters_are_interchangeable() {
    let mut limiters: Vec<Box<dyn RateLimiter>> = vec![Box::new(FixedWindow::new(1, 100)), Box::new(SlidingLog::new(1, 100))];
    let results: Vec<bool> = limiters.iter_mut().map(|l| l.allow(5)).collect();
    assert_eq!(results, vec![true, true]);
    let second: Vec<bool> = limiters.iter_mut().map(|l| l.allow(50)).collect();
    assert_eq!(second, vec![false, false]);
}

#[test]
fn custom_limiter_works_with_count_allowed() {
    struct EveryOther(bool);
    impl RateLimiter for EveryOther {
        fn allow(&mut self, _now_ms: u64) -> bool {
            self.0 = !self.0;
            self.0
        }
    }
    assert_eq!(count_allowed(&mut EveryOther(false), &[1, 2, 3, 4, 5]), 3);
    assert_eq!(count_allowed(&mut EveryOther(false), &[]), 0);
}
