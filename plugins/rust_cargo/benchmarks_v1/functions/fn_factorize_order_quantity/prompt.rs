/// Factors `n` into primes, returning `(prime, exponent)` pairs in increasing
/// order of prime; for example 360 gives `[(2, 3), (3, 2), (5, 1)]`.
/// 0 and 1 have no prime factors and give an empty `Vec`. Must handle any
/// `u64` whose second-largest prime factor is small, without overflow.
pub fn factorize(n: u64) -> Vec<(u64, u32)> {
