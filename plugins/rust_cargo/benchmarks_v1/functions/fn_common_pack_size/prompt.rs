/// Returns the largest pack size that evenly divides every order quantity in
/// `quantities`, i.e. their greatest common divisor.
///
/// Zero quantities are ignored; if there is no non-zero quantity the result
/// is 0.
pub fn common_pack_size(quantities: &[u64]) -> u64 {
