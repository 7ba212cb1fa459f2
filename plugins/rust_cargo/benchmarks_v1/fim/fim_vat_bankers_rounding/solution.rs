use std::cmp::Ordering;

/// VAT in cents for a net amount in cents at a rate in basis points
/// (2000 = 20%). The exact value `net * rate / 10_000` is rounded to the
/// nearest cent, halves going to the even cent (banker's rounding). The
/// intermediate product must not overflow.
pub fn vat_cents(net_cents: u64, rate_bp: u32) -> u64 {
    let exact = u128::from(net_cents) * u128::from(rate_bp);
    let quotient = exact / 10_000;
    let rounded = match (exact % 10_000).cmp(&5_000) {
        Ordering::Less => quotient,
        Ordering::Greater => quotient + 1,
        Ordering::Equal => quotient + quotient % 2,
    };
    rounded as u64
}
