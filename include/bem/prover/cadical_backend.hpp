// CaDiCaL as a model of bem::prover::sat_backend (bem/prover/sat_backend.hpp).
//
// It needs libcadical-dev (Debian ships <cadical.hpp> and the static
// libcadical.a, which the program must link). Where <cadical.hpp> is absent
// the header declares nothing, so it stays self-contained; meson defines
// BEM_HAVE_CADICAL for the targets that find and link the library. The
// library's own reserve/add/assume/limit/solve/val calls are forwarded; the
// conflict budget maps to CaDiCaL's per-call "conflicts" limit.
#pragma once

#include <bem/prover/cdcl.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#if __has_include(<cadical.hpp>)
#include <cadical.hpp>

#include <cstdint>
#include <limits>
#include <span>

BEM_NAMESPACE_BEGIN
namespace prover {

class cadical_backend {
 public:
  using sat_backend_concept = sat_backend_t;
  static constexpr const char* backend_name = "cadical";

  void reserve_vars(int n) {
    if (n > vars_) {
      solver_.reserve(n);
      vars_ = n;
    }
  }
  bool add_clause(std::span<const int> clause) {
    for (int l : clause) solver_.add(l);
    solver_.add(0);
    return true;  // CaDiCaL only knows after solve()
  }
  void set_conflict_budget(std::int64_t conflicts) noexcept { budget_ = conflicts; }
  sat_result solve(std::span<const int> assumptions) {
    for (int a : assumptions) solver_.assume(a);
    if (budget_ >= 0)
      solver_.limit("conflicts", budget_ > std::numeric_limits<int>::max() ? std::numeric_limits<int>::max()
                                                                          : static_cast<int>(budget_));
    const int r = solver_.solve();
    return r == 10 ? sat_result::sat : r == 20 ? sat_result::unsat : sat_result::unknown;
  }
  bool value(int v) { return solver_.val(v) > 0; }
  /// The wrapped solver (for options and proof tracing).
  CaDiCaL::Solver& solver() noexcept { return solver_; }

 private:
  CaDiCaL::Solver solver_;
  int vars_ = 0;
  std::int64_t budget_ = -1;
};

static_assert(sat_backend<cadical_backend>);

}  // namespace prover
BEM_NAMESPACE_END
#endif
