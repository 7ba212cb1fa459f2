use super::*;

fn line(d: &str, q: u32, c: u64) -> Line {
    Line { description: d.to_string(), quantity: q, unit_cents: c }
}

#[test]
fn helpers_compute_amounts() {
    assert_eq!(line_total(&line("cable", 3, 1_250)), 3_750);
    assert_eq!(subtotal(&[line("a", 2, 500), line("b", 1, 99)]), 1_099);
    assert_eq!(subtotal(&[]), 0);
}

#[test]
fn discount_threshold_and_rounding() {
    assert_eq!(bulk_discount(9_999), 0);
    assert_eq!(bulk_discount(10_000), 500);
    assert_eq!(bulk_discount(10_019), 500);
}

#[test]
fn tax_rounds_half_up() {
    assert_eq!(tax(1_000), 80);
    assert_eq!(tax(1_006), 80);
    assert_eq!(tax(1_007), 81);
    assert_eq!(tax(0), 0);
}

#[test]
fn rendered_text_is_unchanged() {
    let text = render_invoice(&[line("router", 1, 8_900), line("cable", 3, 1_250)]);
    assert_eq!(
        text,
        "router x1 89.00\ncable x3 37.50\nsubtotal 126.50\ndiscount 6.32\ntax 9.61\ntotal 129.79\n"
    );
}

#[test]
fn small_order_has_no_discount() {
    let text = render_invoice(&[line("pen", 4, 105)]);
    assert_eq!(text, "pen x4 4.20\nsubtotal 4.20\ndiscount 0.00\ntax 0.34\ntotal 4.54\n");
}
