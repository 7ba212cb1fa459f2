use super::*;

#[test]
fn builds_a_complete_invoice() {
    let invoice = InvoiceBuilder::new()
        .number("INV-1")
        .customer("ACME")
        .line("Widget", 1_999)
        .line("Gadget", 501)
        .tax_basis_points(2_000)
        .build()
        .unwrap();
    assert_eq!(
        invoice,
        Invoice {
            number: "INV-1".to_string(),
            customer: "ACME".to_string(),
            lines: vec![("Widget".to_string(), 1_999), ("Gadget".to_string(), 501)],
            subtotal_cents: 2_500,
            tax_cents: 500,
            total_cents: 3_000,
        }
    );
}

#[test]
fn tax_rounds_half_up() {
    let base = || InvoiceBuilder::new().number("N").customer("C").tax_basis_points(1_000);
    assert_eq!(base().line("x", 1_005).build().unwrap().tax_cents, 101);
    assert_eq!(base().line("x", 1_004).build().unwrap().tax_cents, 100);
    assert_eq!(base().line("x", 1_005).build().unwrap().total_cents, 1_106);
}

#[test]
fn no_tax_by_default() {
    let invoice = InvoiceBuilder::new().number("N").customer("C").line("a", 10).line("b", 0).build().unwrap();
    assert_eq!((invoice.subtotal_cents, invoice.tax_cents, invoice.total_cents), (10, 0, 10));
}

#[test]
fn errors_are_checked_in_order() {
    assert_eq!(InvoiceBuilder::new().build(), Err(BuildError::MissingNumber));
    assert_eq!(InvoiceBuilder::new().customer("C").line("a", 1).build(), Err(BuildError::MissingNumber));
    assert_eq!(InvoiceBuilder::new().number("N").build(), Err(BuildError::MissingCustomer));
    assert_eq!(InvoiceBuilder::new().number("N").customer("C").build(), Err(BuildError::NoLines));
}
