// pass@k: the chance that at least one of k samples passes.
//
// With n samples of which c pass, the unbiased estimator (Chen et al. 2021)
// is 1 - C(n - c, k) / C(n, k): the chance that k samples drawn without
// replacement from the n include a passing one. Computed as the product
// 1 - prod_{i = n - c + 1}^{n} (1 - k / i), which never forms the huge
// binomials; it is 1 when n - c < k. Needs n >= k: with fewer samples the
// estimate does not exist, and callers must say so rather than report a
// number. Greedy decoding gives one deterministic sample, so its pass@1 is
// reported separately and says nothing about pass@5 or pass@10.
#pragma once

#include <bem/version.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

BEM_NAMESPACE_BEGIN
namespace metrics {

/// Unbiased pass@k of one task from n samples with c passing; n >= k >= 1.
inline double pass_at_k(std::int64_t n, std::int64_t c, std::int64_t k) {
  if (k < 1 || n < k || c < 0 || c > n)
    throw std::invalid_argument("pass_at_k: needs n >= k >= 1 and 0 <= c <= n (n=" + std::to_string(n) +
                                ", c=" + std::to_string(c) + ", k=" + std::to_string(k) + ")");
  if (n - c < k) return 1.0;
  double fail = 1.0;
  for (std::int64_t i = n - c + 1; i <= n; ++i) fail *= 1.0 - static_cast<double>(k) / static_cast<double>(i);
  return 1.0 - fail;
}

}  // namespace metrics
BEM_NAMESPACE_END
