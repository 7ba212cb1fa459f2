use crate::cart::Cart;
use crate::discount::{Discount, LineView, NthFree, PercentOff};

fn cart() -> Cart {
    let mut c = Cart::new();
    c.add("tea", 4, 350);
    c.add("mug", 1, 1_200);
    c
}

#[test]
fn no_offers_means_subtotal() {
    assert_eq!(cart().total_with(&[]), (2_600, None));
}

#[test]
fn best_offer_wins() {
    let ten = PercentOff { percent: 10 };
    let tea = NthFree { sku: "tea".to_string(), n: 3 };
    assert_eq!(cart().total_with(&[&ten, &tea]), (2_250, Some("nth_free".to_string())));
    let twenty = PercentOff { percent: 20 };
    assert_eq!(cart().total_with(&[&tea, &twenty]), (2_080, Some("percent".to_string())));
}

#[test]
fn first_offer_wins_ties_and_zero_savings_is_ignored() {
    let mut c = Cart::new();
    c.add("tea", 3, 500);
    c.add("tea", 1, 500);
    let a = NthFree { sku: "tea".to_string(), n: 4 };
    let b = PercentOff { percent: 25 };
    let none = NthFree { sku: "coffee".to_string(), n: 2 };
    assert_eq!(c.total_with(&[&none, &a, &b]), (1_500, Some("nth_free".to_string())));
    assert_eq!(c.total_with(&[&b, &a]), (1_500, Some("percent".to_string())));
    assert_eq!(c.total_with(&[&none]), (2_000, None));
}

#[test]
fn savings_are_capped_at_subtotal() {
    struct Huge;
    impl Discount for Huge {
        fn name(&self) -> &str {
            "huge"
        }
        fn savings(&self, lines: &[LineView<'_>]) -> u64 {
            assert_eq!(lines.len(), 2);
            1_000_000
        }
    }
    assert_eq!(cart().total_with(&[&Huge]), (0, Some("huge".to_string())));
}
