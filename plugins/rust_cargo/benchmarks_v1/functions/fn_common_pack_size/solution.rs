/// Returns the largest pack size that evenly divides every order quantity in
/// `quantities`, i.e. their greatest common divisor.
///
/// Zero quantities are ignored; if there is no non-zero quantity the result
/// is 0.
pub fn common_pack_size(quantities: &[u64]) -> u64 {
    quantities.iter().fold(0, |acc, &q| gcd(acc, q))
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}
