// Task: a checkout service computes payment fees with `fee` and `total_fees`,
// as the doc comments say. The file does not compile. Fix it and return the
// whole corrected file.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Card,
    BankTransfer,
    Wallet,
    Voucher,
}

/// The fee, in cents, for paying `amount` cents:
/// - Card: 1.5 % of the amount, rounded up, plus 25 cents;
/// - BankTransfer: a flat 50 cents;
/// - Wallet: 2 % of the amount, rounded up;
/// - Voucher: no fee.
pub fn fee(method: Method, amount: u64) -> u64 {
    match method {
        Method::Card => (amount * 15 + 999) / 1000 + 25,
        Method::BankTransfer => 50,
        Method::Wallet => (amount * 2 + 99) / 100,
        Method::Voucher => 0,
    }
}

/// The sum of the fees of all payments.
pub fn total_fees(payments: &[(Method, u64)]) -> u64 {
    payments.iter().map(|&(method, amount)| fee(method, amount)).sum()
}
