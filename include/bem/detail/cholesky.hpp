// Cholesky factorisation and solve for small dense symmetric systems (the
// ridge regressions of the probes in bem/nn/diagnostics.hpp and of the
// bandit policies): row-major, in place, no allocation.
#pragma once

#include <bem/version.hpp>

#include <cmath>
#include <cstddef>

BEM_NAMESPACE_BEGIN
namespace detail {

/// Factors the symmetric n x n matrix `a` (row-major; its lower triangle is
/// read) into L L^T, L written over the lower triangle. A pivot below
/// `pivot_floor` is raised to it (round-off can leave a tiny negative pivot
/// in a matrix that is positive definite in exact arithmetic); returns false
/// when some pivot was not positive before that.
inline bool cholesky_in_place(double* a, std::size_t n, double pivot_floor) {
  bool definite = true;
  for (std::size_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    definite = definite && d > 0;
    const double l = std::sqrt(d > pivot_floor ? d : pivot_floor);
    a[j * n + j] = l;
    for (std::size_t i = j + 1; i < n; ++i) {
      double v = a[i * n + j];
      for (std::size_t k = 0; k < j; ++k) v -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = v / l;
    }
  }
  return definite;
}

/// Solves L L^T x = b with the factor of cholesky_in_place; x replaces b.
inline void cholesky_solve_in_place(const double* l, std::size_t n, double* b) {
  for (std::size_t i = 0; i < n; ++i) {  // L z = b
    for (std::size_t k = 0; k < i; ++k) b[i] -= l[i * n + k] * b[k];
    b[i] /= l[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = z
    for (std::size_t k = i + 1; k < n; ++k) b[i] -= l[k * n + i] * b[k];
    b[i] /= l[i * n + i];
  }
}

}  // namespace detail
BEM_NAMESPACE_END
