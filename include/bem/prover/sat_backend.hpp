// The SAT back-end policy: what the PROVER needs from a SAT solver.
//
// bem::machine takes its SAT back end as a policy; every model of this
// concept answers SAT_CHECK, so the solver can be exchanged (bem's own CDCL,
// CaDiCaL) without touching the code that builds verification conditions.
//
// ## sat_backend
// Minimal definition — a default-constructible type `B` with
//   `using sat_backend_concept = bem::prover::sat_backend_t;`
//        the explicit opt-in (the project's one spelling:
//        docs/architecture.md): a type that merely happens to have these
//        members is not a back end;
//   `static constexpr const char* backend_name`;
//   `void reserve_vars(int n)`               variables 1..n exist;
//   `bool add_clause(std::span<const int>)`  add a clause (DIMACS literals);
//        false means the clauses are known unsatisfiable (a back end that
//        cannot tell without solving returns true);
//   `void set_conflict_budget(std::int64_t)` conflicts allowed per solve
//        (< 0: unlimited);
//   `sat_result solve(std::span<const int> assumptions)`;
//   `bool value(int v) const-or-not`         variable v in the last model.
// Laws:
//   1. SAT: the values of variables 1..n satisfy every clause added and every
//      assumption of that call. (sat_check below checks this for any back end
//      and throws std::logic_error when a back end breaks it.)
//   2. UNSAT: the clauses and the assumptions have no common model.
//   3. UNKNOWN only when the budget is non-negative and was spent.
//   4. Incremental: clauses may be added after solve(); later answers refer
//      to all clauses added so far, assumptions hold for one call only.
// Models in the library: bem::prover::cdcl_solver (bem/prover/cdcl.hpp);
// bem::prover::cadical_backend (bem/prover/cadical_backend.hpp, only when
// libcadical-dev is installed; the meson option is automatic).
//
// Example (compiled by tests/prover/solver.cpp):
//
//     struct cdcl_twice {                       // a back end wrapping cdcl_solver
//       using sat_backend_concept = bem::prover::sat_backend_t;
//       static constexpr const char* backend_name = "cdcl-twice";
//       bem::prover::cdcl_solver s;
//       void reserve_vars(int n) { s.reserve_vars(n); }
//       bool add_clause(std::span<const int> c) { return s.add_clause(c); }
//       void set_conflict_budget(std::int64_t b) { s.set_conflict_budget(b); }
//       bem::prover::sat_result solve(std::span<const int> a) { return s.solve(a); }
//       bool value(int v) const { return s.value(v); }
//     };
//     static_assert(bem::prover::sat_backend<cdcl_twice>);
//     auto r = bem::prover::sat_check<cdcl_twice>(formula);  // model verified
#pragma once

#include <bem/prover/cnf.hpp>
#include <bem/version.hpp>

#include <concepts>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

BEM_NAMESPACE_BEGIN
namespace prover {

/// The answer of SAT_CHECK.
enum class sat_result { sat, unsat, unknown };

constexpr std::string_view to_string(sat_result r) noexcept {
  switch (r) {
    case sat_result::sat: return "SAT";
    case sat_result::unsat: return "UNSAT";
    case sat_result::unknown: return "UNKNOWN";
  }
  return "?";
}

/// The opt-in tag of sat_backend.
struct sat_backend_t {};

namespace detail {
template <class B>
concept sat_backend_opted_in = requires { typename B::sat_backend_concept; } &&
                               std::derived_from<typename B::sat_backend_concept, sat_backend_t>;
template <class B>
concept has_sat_backend_members =
    std::default_initializable<B> && requires(B& b, std::span<const int> c, int v, std::int64_t budget) {
      { B::backend_name } -> std::convertible_to<const char*>;
      b.reserve_vars(v);
      { b.add_clause(c) } -> std::convertible_to<bool>;
      b.set_conflict_budget(budget);
      { b.solve(c) } -> std::same_as<sat_result>;
      { b.value(v) } -> std::convertible_to<bool>;
    };
}  // namespace detail

template <class B>
concept sat_backend = detail::sat_backend_opted_in<B> && detail::has_sat_backend_members<B>;

/// Where a back end is used: readable errors instead of a concept dump.
template <class B>
consteval bool assert_sat_backend() {
  static_assert(detail::sat_backend_opted_in<B>,
                "bem::prover::sat_backend: opt in with `using sat_backend_concept = bem::prover::sat_backend_t;`");
  static_assert(detail::has_sat_backend_members<B>,
                "bem::prover::sat_backend: the back end needs backend_name, reserve_vars(int), "
                "add_clause(std::span<const int>) -> bool, set_conflict_budget(std::int64_t), "
                "solve(std::span<const int>) -> sat_result and value(int) -> bool");
  return true;
}

/// SAT_CHECK's answer with its verified model.
struct check_outcome {
  sat_result result = sat_result::unknown;
  assignment model;  ///< SAT only: index v-1 = value of variable v
};

/// SAT_CHECK(f) with a fresh back end B and a conflict budget (< 0: none).
/// A SAT model is evaluated against f before it is returned (law 1); a
/// back end that returns a wrong model throws std::logic_error.
template <class B>
  requires(assert_sat_backend<B>())
check_outcome sat_check(const cnf& f, std::int64_t conflict_budget = -1) {
  B b;
  b.reserve_vars(f.num_vars());
  for (std::size_t i = 0; i < f.size(); ++i) b.add_clause(f[i]);
  b.set_conflict_budget(conflict_budget);
  check_outcome out;
  out.result = b.solve(std::span<const int>{});
  if (out.result == sat_result::sat) {
    out.model.resize(static_cast<std::size_t>(f.num_vars()));
    for (int v = 1; v <= f.num_vars(); ++v) out.model[static_cast<std::size_t>(v - 1)] = b.value(v);
    const std::size_t bad = first_falsified(f, out.model);
    if (bad != f.size())
      throw std::logic_error(std::string("bem::prover::sat_check: back end ") + B::backend_name +
                             " returned a model that falsifies clause " + std::to_string(bad));
  }
  return out;
}

}  // namespace prover
BEM_NAMESPACE_END
