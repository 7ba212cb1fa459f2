// Helpers shared by the PROVER tests.
#pragma once

#include <bem/prover/cnf.hpp>

#include <cstdint>

namespace prover_test {

/// Brute force over all 2^n assignments (n <= 20): true when f has a model.
inline bool brute_force_sat(const bem::prover::cnf& f) {
  const int n = f.num_vars();
  bem::prover::assignment a(static_cast<std::size_t>(n));
  for (std::uint64_t x = 0; x < (std::uint64_t{1} << n); ++x) {
    for (int v = 0; v < n; ++v) a[static_cast<std::size_t>(v)] = (x >> v) & 1u;
    if (bem::prover::satisfies(f, a)) return true;
  }
  return false;
}

}  // namespace prover_test
