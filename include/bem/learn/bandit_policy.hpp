// The bandit_policy concept of BEM suite sections 5.1 and 5.2 and what every
// policy shares: the environment's shape, the hyperparameters, the features.
// The models are in bem/learn/bandit_policies.hpp (the baselines) and
// bem/learn/bem_bandit.hpp (the BEM).
//
// ## bandit_policy (concept)
// Minimal definition — a type `P` with
//   `int choose(std::uint32_t context)`                 the action for a context
//   `void learn(std::uint32_t context, int action, double reward)`
//   `static constexpr const char* name`
//   `static constexpr bool learns`                      false: learn does nothing
// Laws:
//   1. choose returns an action in [0, K).
//   2. A policy is a deterministic function of its construction (including
//      its seed) and the calls made to it: the same calls give the same
//      actions on every machine.
//   3. learn(x, a, r) is called once per round, after choose(x) returned a,
//      with r in [0, 1]; its state after a sequence of learn calls does not
//      depend on the choose calls between them (so a run's updates can be
//      replayed alone to time them).
// Models: bem_bandit_policy, uniform_policy, ucb1_per_context_policy,
// discounted_ucb1_per_context_policy, epsilon_greedy_logistic_policy,
// linucb_policy, sliding_window_linucb_policy, discounted_linucb_policy.
// Example (compiled by tests/bandit/bandit.cpp):
//
//     bem::linucb_policy p({8, 4}, {}, 1);
//     const int a = p.choose(0b1011);
//     p.learn(0b1011, a, 1.0);
#pragma once

#include <bem/version.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

BEM_NAMESPACE_BEGIN

template <class P>
concept bandit_policy = requires(P& p, std::uint32_t x, int a, double r) {
  { p.choose(x) } -> std::same_as<int>;
  { p.learn(x, a, r) } -> std::same_as<void>;
  { P::name } -> std::convertible_to<const char*>;
  { P::learns } -> std::convertible_to<bool>;
};

/// The hyperparameters of every policy, with their defaults (ours where the
/// spec names none; docs/bandits.md says why each is what it is).
struct bandit_policy_settings {
  double c_explore = 1.4142135623730951;  ///< UCB1's c (bem, ucb1_per_context, discounted_ucb1)
  double epsilon = 0.05;                  ///< epsilon_greedy
  double learning_rate = 0.1;             ///< epsilon_greedy
  double alpha = 1.0;                     ///< linucb, sw_linucb, d_linucb: the confidence width
  std::int64_t mid_path_every = 1000;     ///< bem: rounds between mid-path updates
  double discount = 0.95;                 ///< discounted_ucb1: gamma per visit of a context
  // The BEM's ensemble of threshold-circuit experts (bem/learn/bem_bandit.hpp).
  int ensemble = 8;                       ///< bem: members while the world is stable
  int max_ensemble = 16;                  ///< bem: members after splits (a change doubles them up to this)
  double perturbation = 0.5;              ///< bem: the std of each member's reward perturbation (ensemble sampling)
  double prior_precision = 1.0;           ///< bem: lambda of the ridge prior, also of sw_linucb and d_linucb
  std::int64_t refit_every = 500;         ///< bem: rounds between refits, once the doubling schedule reaches it
  int weight_bits = 8;                    ///< bem: bits of a quantised weight, sign included (2..16)
  double change_drift = 0.05;             ///< bem: CUSUM's allowance per round on the residuals
  double change_threshold = 20.0;         ///< bem: CUSUM's alarm level
  std::int64_t change_warmup = 1000;      ///< bem: rounds after a (re)start before the detector runs
  std::int64_t merge_after = 10000;       ///< bem: stable rounds before the extra members merge back
  std::int64_t window = 4000;             ///< sw_linucb: the sliding window, rounds
  double forgetting = 0.9997;             ///< d_linucb: gamma per round
};

/// The shape every policy is built for.
struct bandit_shape {
  int d = 8;        ///< context bits, 1..16
  int actions = 4;  ///< K, 2..16
};

namespace detail {
inline void check_bandit_shape(const bandit_shape& s, const char* who) {
  if (s.d < 1 || s.d > 16 || s.actions < 2 || s.actions > 16)
    throw std::invalid_argument(std::string(who) + ": need 1 <= d <= 16 and 2 <= actions <= 16");
}
/// z = (bits of x, 1).
inline void bandit_features(std::uint32_t x, int d, double* z) noexcept {
  for (int j = 0; j < d; ++j) z[j] = static_cast<double>((x >> j) & 1u);
  z[d] = 1.0;
}
/// M^-1 becomes (M + z z^T)^-1 by Sherman-Morrison, for an n x n row-major
/// symmetric inverse m: u = m z, m -= u u^T / (1 + z . u). `u` is n scratch.
inline void sherman_morrison_add(double* m, const double* z, std::size_t n, double* u) noexcept {
  double denom = 1;
  for (std::size_t i = 0; i < n; ++i) {
    double row = 0;
    for (std::size_t j = 0; j < n; ++j) row += m[i * n + j] * z[j];
    u[i] = row;
    denom += z[i] * row;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) m[i * n + j] -= u[i] * u[j] / denom;
}
}  // namespace detail

BEM_NAMESPACE_END
