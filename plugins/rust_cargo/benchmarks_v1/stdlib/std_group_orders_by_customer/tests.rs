use super::*;

fn line(customer: &str, order_id: u32, amount_cents: u64) -> OrderLine {
    OrderLine { customer: customer.to_string(), order_id, amount_cents }
}

#[test]
fn no_lines_no_groups() {
    assert!(group_by_customer(&[]).is_empty());
}

#[test]
fn lines_are_grouped_per_customer() {
    let lines = [line("acme", 1, 1_000), line("globex", 2, 250), line("acme", 3, 500)];
    let groups = group_by_customer(&lines);
    assert_eq!(groups.len(), 2);
    assert_eq!(groups["acme"], (vec![1, 3], 1_500));
    assert_eq!(groups["globex"], (vec![2], 250));
}

#[test]
fn order_and_repeats_are_kept() {
    let lines = [line("x", 9, 1), line("x", 4, 2), line("x", 9, 3)];
    assert_eq!(group_by_customer(&lines)["x"], (vec![9, 4, 9], 6));
}

#[test]
fn customer_names_are_case_sensitive() {
    let groups = group_by_customer(&[line("Acme", 1, 1), line("acme", 2, 2)]);
    assert_eq!(groups.len(), 2);
    assert_eq!(groups["Acme"].1, 1);
}
