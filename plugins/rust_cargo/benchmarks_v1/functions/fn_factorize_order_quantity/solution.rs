/// Factors `n` into primes, returning `(prime, exponent)` pairs in increasing
/// order of prime; for example 360 gives `[(2, 3), (3, 2), (5, 1)]`.
/// 0 and 1 have no prime factors and give an empty `Vec`. Must handle any
/// `u64` whose second-largest prime factor is small, without overflow.
pub fn factorize(n: u64) -> Vec<(u64, u32)> {
    let mut factors = Vec::new();
    if n < 2 {
        return factors;
    }
    let mut rest = n;
    let mut divisor = 2;
    while divisor <= rest / divisor {
        let mut exponent = 0;
        while rest % divisor == 0 {
            rest /= divisor;
            exponent += 1;
        }
        if exponent > 0 {
            factors.push((divisor, exponent));
        }
        divisor += if divisor == 2 { 1 } else { 2 };
    }
    if rest > 1 {
        factors.push((rest, 1));
    }
    factors
}
