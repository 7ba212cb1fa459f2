// Incremental contexts: a base CNF plus per-patch delta CNFs under
// assumptions, as the BEM core specification's PROVER describes.
//
// A BEM verifies many patches against the same machine description. The base
// CNF (the machine's transition relation, invariants) is added once; each
// patch contributes a delta CNF (its verification condition's own clauses).
// Delta k is guarded by a fresh activation variable a_k: every delta clause C
// is added as (C or -a_k), so the delta is in force exactly when a_k is
// assumed. check(k) solves base + delta k under the assumption a_k; the
// solver keeps what it learned from the base across patches.
//
// Laws:
//   1. check({k1, ..., kr}) answers as a fresh solver would on base plus
//      deltas k1..kr (assumption-guarded clauses are inert without a_k).
//   2. retire(k) adds the unit -a_k: delta k can never be in force again and
//      a solver may discard its clauses; its id is not reused.
//   3. Delta clauses use the variables 1..user_vars (declared at
//      construction); activation variables live above them and never appear
//      in models or answers.
//   4. After UNSAT, failed_patches() names the deltas in the core over the
//      assumptions (bem::prover::cdcl_solver back ends only report it for the
//      last call).
#pragma once

#include <bem/prover/cnf.hpp>
#include <bem/prover/sat_backend.hpp>
#include <bem/version.hpp>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace prover {

template <class B>
  requires(assert_sat_backend<B>())
class incremental_context {
 public:
  using patch_id = std::size_t;

  /// A context over variables 1..user_vars (at least base.num_vars()).
  explicit incremental_context(const cnf& base, int user_vars = 0)
      : user_vars_(user_vars > base.num_vars() ? user_vars : base.num_vars()) {
    backend_.reserve_vars(user_vars_);
    for (std::size_t i = 0; i < base.size(); ++i) backend_.add_clause(base[i]);
  }

  /// Adds a delta CNF; returns its id.
  patch_id add_delta(const cnf& delta) {
    if (delta.num_vars() > user_vars_)
      throw std::invalid_argument("bem::prover::incremental_context: delta uses variable " +
                                  std::to_string(delta.num_vars()) + ", the context has " +
                                  std::to_string(user_vars_));
    const int a = user_vars_ + static_cast<int>(activation_.size()) + 1;
    backend_.reserve_vars(a);
    activation_.push_back(a);
    retired_.push_back(0);
    std::vector<int> c;
    for (std::size_t i = 0; i < delta.size(); ++i) {
      c.assign(delta[i].begin(), delta[i].end());
      c.push_back(-a);
      backend_.add_clause(c);
    }
    return activation_.size() - 1;
  }

  /// Removes delta k for good (law 2).
  void retire(patch_id k) {
    check_id(k);
    if (retired_[k]) return;
    retired_[k] = 1;
    const int unit = -activation_[k];
    backend_.add_clause(std::span<const int>(&unit, 1));
  }

  /// SAT_CHECK of base + the given deltas.
  sat_result check(std::span<const patch_id> patches) {
    assumptions_.clear();
    for (auto k : patches) {
      check_id(k);
      if (retired_[k]) throw std::invalid_argument("bem::prover::incremental_context: delta " + std::to_string(k) + " was retired");
      assumptions_.push_back(activation_[k]);
    }
    last_ = backend_.solve(assumptions_);
    return last_;
  }
  sat_result check(patch_id k) { return check(std::span<const patch_id>(&k, 1)); }
  /// SAT_CHECK of the base alone.
  sat_result check_base() { return check(std::span<const patch_id>{}); }

  /// After SAT: the model over the user variables.
  assignment model() {
    if (last_ != sat_result::sat) throw std::logic_error("bem::prover::incremental_context: no model (last answer not SAT)");
    assignment a(static_cast<std::size_t>(user_vars_));
    for (int v = 1; v <= user_vars_; ++v) a[static_cast<std::size_t>(v - 1)] = backend_.value(v);
    return a;
  }

  /// After UNSAT with a cdcl_solver back end: the deltas whose activation
  /// was among the failed assumptions.
  std::vector<patch_id> failed_patches() const
    requires requires(const B& b) { b.failed_assumptions(); }
  {
    std::vector<patch_id> out;
    for (int l : backend_.failed_assumptions()) {
      const int v = std::abs(l);
      if (v > user_vars_) out.push_back(static_cast<patch_id>(v - user_vars_ - 1));
    }
    return out;
  }

  void set_conflict_budget(std::int64_t c) { backend_.set_conflict_budget(c); }
  int user_vars() const noexcept { return user_vars_; }
  std::size_t deltas() const noexcept { return activation_.size(); }
  B& backend() noexcept { return backend_; }

 private:
  void check_id(patch_id k) const {
    if (k >= activation_.size())
      throw std::out_of_range("bem::prover::incremental_context: no delta " + std::to_string(k));
  }
  B backend_;
  int user_vars_;
  std::vector<int> activation_, assumptions_;
  std::vector<std::uint8_t> retired_;
  sat_result last_ = sat_result::unknown;
};

}  // namespace prover
BEM_NAMESPACE_END
