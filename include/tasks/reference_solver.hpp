// What every exact reference solver shares.
//
// A task's reference_model computes the label from the input tokens alone,
// with the automaton, counter or dictionary the task needs, written
// independently of the generator's formula: scoring 1.0 on every split then
// checks the generator and the solver against each other. Solvers have no
// parameters and learn nothing; they state certainty with logits of
// +-certain_logit.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <cstddef>
#include <cstdint>

BEM_NAMESPACE_BEGIN
namespace tasks {

/// Logit magnitude with which reference solvers state certainty.
inline constexpr float certain_logit = 30.0f;

/// Base of the reference solvers: the no-op half of bem::sequence_model.
/// A solver derives from it, inherits its constructors, and adds `predict`
/// and `description` (and `reset` when it reads the task's spec).
struct reference_solver_base {
  static constexpr const char* name = "reference";
  static constexpr const char* version = "1";

  reference_solver_base() = default;
  explicit reference_solver_base(parameters&) {}
  void reset(const task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const sequence_batch&) { return 0.0; }
  std::size_t parameter_count() const { return 0; }
};

}  // namespace tasks
BEM_NAMESPACE_END
