// Policies for the contextual bandits of BEM suite sections 5.1 and 5.2
// (tasks/contextual_bandit.hpp): the BEM itself, running on bem::machine, and
// five baselines a reader of the regret tables expects beside it.
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
// linucb_policy.
//
// What each does (d context bits, K actions; z = (x_0, ..., x_{d-1}, 1) where
// a policy reads features):
//   bem_bandit_policy   a bem::machine<8, 64, 64> with one expert per action
//                       (expert a writes a's number into STATE bits 1..4,
//                       from which the action is read back: the expert
//                       induces the action). Each context is a task
//                       (task_id = x), so ROUTE_QUERY returns the K experts
//                       (k_large = K) and the machine's UCB1 selection ranks
//                       them by that context's statistics (bem/machine/selection.hpp:
//                       an unvisited expert is not forced first, ties go to
//                       the router's order); learn is the machine's
//                       STATS_UPDATE, and every `mid_path_every` rounds the
//                       mid-path log-weight update runs (its cost is
//                       learning overhead; it changes the log-weights, which
//                       only the sampling mode reads). No structural patch.
//   uniform_policy      a uniform action (its own xoshiro256ss); learns nothing.
//   ucb1_per_context    classic UCB1 per context: each untried action first
//                       (lowest number first), then argmax mean + c sqrt(ln n_x / n_x,a).
//   discounted_ucb1     UCB1 per context on statistics discounted by gamma at
//                       each visit of the context (for section 5.2's changes).
//   epsilon_greedy_logistic   a logistic model per action on z, one SGD step
//                       per round on the taken action's log-loss
//                       (theta += lr (r - sigma(theta . z)) z); with
//                       probability epsilon a uniform action, else the
//                       highest theta . z (lowest action on a tie).
//   linucb              disjoint LinUCB (Li, Chu, Langford, Schapire 2010):
//                       per action A = I + sum z z^T, b = sum r z, the action
//                       maximising theta . z + alpha sqrt(z^T A^-1 z) with
//                       theta = A^-1 b (lowest on a tie); A^-1 kept by the
//                       Sherman-Morrison update.
// Hyperparameters are ours where the spec names none: c = sqrt(2), epsilon =
// 0.05, lr = 0.1, alpha = 1, mid_path_every = 1000, gamma = 0.95
// (bandit_policy_settings).
#pragma once

#include <bem/circuits/gate_list.hpp>
#include <bem/machine/expert.hpp>
#include <bem/machine/identifier.hpp>
#include <bem/machine/machine.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

template <class P>
concept bandit_policy = requires(P& p, std::uint32_t x, int a, double r) {
  { p.choose(x) } -> std::same_as<int>;
  { p.learn(x, a, r) } -> std::same_as<void>;
  { P::name } -> std::convertible_to<const char*>;
  { P::learns } -> std::convertible_to<bool>;
};

/// The hyperparameters of every policy, with their defaults.
struct bandit_policy_settings {
  double c_explore = 1.4142135623730951;  ///< UCB1's c (bem and ucb1_per_context)
  double epsilon = 0.05;                  ///< epsilon_greedy_logistic
  double learning_rate = 0.1;             ///< epsilon_greedy_logistic
  double alpha = 1.0;                     ///< linucb
  std::int64_t mid_path_every = 1000;     ///< bem: rounds between mid-path updates
  double discount = 0.95;                 ///< discounted_ucb1: gamma per visit of a context
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
}  // namespace detail

/// The BEM: one expert per action on a bem::machine (see the header comment).
class bem_bandit_policy {
 public:
  static constexpr const char* name = "bem";
  static constexpr bool learns = true;
  /// STATE bits: bit 0 the experts' (ignored) input, bits 1..4 the action.
  using machine_type = machine<8, 64, 64>;

  bem_bandit_policy(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t seed)
      : mid_every_(p.mid_path_every), machine_(config(s, p, seed)) {
    for (int a = 0; a < s.actions; ++a)
      slot_of_action_.push_back(machine_.add_expert(action_expert(a)));
  }

  int choose(std::uint32_t x) {
    const auto chosen = machine_.step({x, x, 0, 0});
    // The action is what the applied expert wrote, read back from STATE.
    int a = 0;
    for (int b = 0; b < 4; ++b) a |= static_cast<int>(machine_.state_words().bit(1 + b, 0)) << b;
    if (chosen.size() != 1 || slot_of_action_.at(a) != chosen[0])
      throw std::logic_error("bem_bandit_policy: the state does not hold the chosen expert's action");
    return a;
  }

  void learn(std::uint32_t x, int a, double r) {
    machine_.reward(x, slot_of_action_.at(a), r);
    if (++learned_ % static_cast<std::uint64_t>(mid_every_) == 0) machine_.mid_path_update();
  }

  const machine_type& bem() const noexcept { return machine_; }

 private:
  /// The machine's configuration, once the shape and settings are checked.
  static machine_config config(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t seed) {
    detail::check_bandit_shape(s, "bem_bandit_policy");
    if (p.mid_path_every < 1) throw std::invalid_argument("bem_bandit_policy: mid_path_every must be >= 1");
    machine_config c;
    c.tasks = std::size_t{1} << s.d;
    c.max_experts = static_cast<std::size_t>(s.actions);
    c.k_large = static_cast<std::size_t>(s.actions);
    c.k_small = 1;
    c.ucb.c_explore = p.c_explore;
    c.seed = seed;
    return c;
  }
  /// Reads STATE bit 0, writes a's number into bits 1..4 (constants built as
  /// x ^ x and its negation).
  static machine_type::expert_type action_expert(int a) {
    const std::vector<gate> gates = {gate{gate_op::xor_, 0, 0, 0, 0}, gate{gate_op::not_, 1, 0, 0, 0}};
    std::vector<std::uint32_t> outputs;
    write_spec w;
    for (std::uint32_t b = 0; b < 4; ++b) {
      outputs.push_back(((a >> b) & 1) ? 2u : 1u);
      w.bits.push_back({1 + b, write_bit::mode::overwrite});
    }
    read_spec r;
    r.bits.push_back({read_bit::source::state, 0});
    const identifier id = make_checked_identifier(1, 0, static_cast<std::uint32_t>(a + 1));
    return {id, r, gate_list(1, gates, outputs), w};
  }

  std::int64_t mid_every_;
  machine_type machine_;
  std::vector<std::uint32_t> slot_of_action_;
  std::uint64_t learned_ = 0;
};

/// A uniform action; learns nothing.
class uniform_policy {
 public:
  static constexpr const char* name = "uniform";
  static constexpr bool learns = false;
  uniform_policy(const bandit_shape& s, const bandit_policy_settings&, std::uint64_t seed)
      : k_(static_cast<std::uint64_t>(s.actions)), rng_(seed) {
    detail::check_bandit_shape(s, "uniform_policy");
  }
  int choose(std::uint32_t) { return static_cast<int>(rng_.uniform_below(k_)); }
  void learn(std::uint32_t, int, double) {}

 private:
  std::uint64_t k_;
  xoshiro256ss rng_;
};

namespace detail {
/// UCB1 statistics per (context, action), discounted by gamma at each visit
/// of the context (gamma = 1: plain counts and sums): untried actions (count
/// 0) first, lowest first; then argmax sum / count + c sqrt(ln n_x / count)
/// with n_x the context's summed counts, lowest on a tie.
class ucb1_statistics {
 public:
  ucb1_statistics(const bandit_shape& s, double c, double gamma, const char* who) : k_(s.actions), c_(c), gamma_(gamma) {
    check_bandit_shape(s, who);
    if (!(c_ >= 0 && std::isfinite(c_))) throw std::invalid_argument(std::string(who) + ": c_explore must be >= 0");
    if (!(gamma_ > 0 && gamma_ <= 1)) throw std::invalid_argument(std::string(who) + ": discount must lie in (0, 1]");
    const std::size_t cells = (std::size_t{1} << s.d) * static_cast<std::size_t>(k_);
    counts_.assign(cells, 0.0);
    sums_.assign(cells, 0.0);
  }
  int choose(std::uint32_t x) const {
    const std::size_t base = static_cast<std::size_t>(x) * static_cast<std::size_t>(k_);
    double n = 0;
    for (int a = 0; a < k_; ++a) {
      if (counts_[base + static_cast<std::size_t>(a)] == 0) return a;
      n += counts_[base + static_cast<std::size_t>(a)];
    }
    const double log_n = std::log(n);
    int best = 0;
    double best_score = -1;
    for (int a = 0; a < k_; ++a) {
      const double na = counts_[base + static_cast<std::size_t>(a)];
      const double score = sums_[base + static_cast<std::size_t>(a)] / na + c_ * std::sqrt(log_n / na);
      if (score > best_score) {
        best_score = score;
        best = a;
      }
    }
    return best;
  }
  void learn(std::uint32_t x, int a, double r) {
    const std::size_t base = static_cast<std::size_t>(x) * static_cast<std::size_t>(k_);
    if (gamma_ != 1)
      for (int b = 0; b < k_; ++b) {
        counts_[base + static_cast<std::size_t>(b)] *= gamma_;
        sums_[base + static_cast<std::size_t>(b)] *= gamma_;
      }
    counts_[base + static_cast<std::size_t>(a)] += 1;
    sums_[base + static_cast<std::size_t>(a)] += r;
  }
  double count(std::uint32_t x, int a) const {
    return counts_.at(static_cast<std::size_t>(x) * static_cast<std::size_t>(k_) + static_cast<std::size_t>(a));
  }

 private:
  int k_;
  double c_, gamma_;
  std::vector<double> counts_, sums_;
};
}  // namespace detail

/// Classic UCB1 for each context separately.
class ucb1_per_context_policy {
 public:
  static constexpr const char* name = "ucb1_per_context";
  static constexpr bool learns = true;
  ucb1_per_context_policy(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t)
      : stats_(s, p.c_explore, 1.0, "ucb1_per_context_policy") {}
  int choose(std::uint32_t x) const { return stats_.choose(x); }
  void learn(std::uint32_t x, int a, double r) { stats_.learn(x, a, r); }
  /// Times action a was taken at context x.
  double pulls(std::uint32_t x, int a) const { return stats_.count(x, a); }

 private:
  detail::ucb1_statistics stats_;
};

/// UCB1 per context on discounted statistics (Garivier and Moulines, 2011,
/// per context): every visit of context x first multiplies x's counts and
/// sums by gamma, then adds the reward to the action taken, so the
/// statistics forget at rate gamma per visit and follow a change of the
/// means. With gamma = 1 it is ucb1_per_context.
class discounted_ucb1_per_context_policy {
 public:
  static constexpr const char* name = "discounted_ucb1";
  static constexpr bool learns = true;
  discounted_ucb1_per_context_policy(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t)
      : stats_(s, p.c_explore, p.discount, "discounted_ucb1_per_context_policy") {}
  int choose(std::uint32_t x) const { return stats_.choose(x); }
  void learn(std::uint32_t x, int a, double r) { stats_.learn(x, a, r); }
  /// The discounted count of action a at context x.
  double count(std::uint32_t x, int a) const { return stats_.count(x, a); }

 private:
  detail::ucb1_statistics stats_;
};

/// Epsilon-greedy over one logistic model per action, trained by SGD.
class epsilon_greedy_logistic_policy {
 public:
  static constexpr const char* name = "epsilon_greedy";
  static constexpr bool learns = true;
  epsilon_greedy_logistic_policy(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t seed)
      : d_(s.d), k_(s.actions), epsilon_(p.epsilon), lr_(p.learning_rate), rng_(seed),
        theta_(static_cast<std::size_t>(s.actions) * static_cast<std::size_t>(s.d + 1), 0.0),
        z_(static_cast<std::size_t>(s.d + 1)) {
    detail::check_bandit_shape(s, "epsilon_greedy_logistic_policy");
    if (!(epsilon_ >= 0 && epsilon_ <= 1))
      throw std::invalid_argument("epsilon_greedy_logistic_policy: epsilon must lie in [0, 1]");
    if (!(lr_ > 0 && std::isfinite(lr_)))
      throw std::invalid_argument("epsilon_greedy_logistic_policy: learning_rate must be finite and > 0");
  }
  int choose(std::uint32_t x) {
    // The draw happens every round, so the stream does not depend on the model.
    const bool explore = rng_.uniform01() < epsilon_;
    const int random = static_cast<int>(rng_.uniform_below(static_cast<std::uint64_t>(k_)));
    if (explore) return random;
    detail::bandit_features(x, d_, z_.data());
    int best = 0;
    double best_logit = logit(0);
    for (int a = 1; a < k_; ++a)
      if (const double l = logit(a); l > best_logit) {
        best_logit = l;
        best = a;
      }
    return best;
  }
  void learn(std::uint32_t x, int a, double r) {
    detail::bandit_features(x, d_, z_.data());
    const double p = 1.0 / (1.0 + std::exp(-logit(a)));
    double* t = &theta_[static_cast<std::size_t>(a) * static_cast<std::size_t>(d_ + 1)];
    for (int j = 0; j <= d_; ++j) t[j] += lr_ * (r - p) * z_[static_cast<std::size_t>(j)];
  }
  /// theta_a . z for the features last set.
  double logit(int a) const noexcept {
    const double* t = &theta_[static_cast<std::size_t>(a) * static_cast<std::size_t>(d_ + 1)];
    double s = 0;
    for (int j = 0; j <= d_; ++j) s += t[j] * z_[static_cast<std::size_t>(j)];
    return s;
  }

 private:
  int d_, k_;
  double epsilon_, lr_;
  xoshiro256ss rng_;
  std::vector<double> theta_;
  std::vector<double> z_;
};

/// Disjoint LinUCB with A^-1 kept by Sherman-Morrison.
class linucb_policy {
 public:
  static constexpr const char* name = "linucb";
  static constexpr bool learns = true;
  linucb_policy(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t)
      : d_(s.d + 1), k_(s.actions), alpha_(p.alpha),
        a_inv_(static_cast<std::size_t>(s.actions) * static_cast<std::size_t>(d_ * d_), 0.0),
        b_(static_cast<std::size_t>(s.actions) * static_cast<std::size_t>(d_), 0.0),
        z_(static_cast<std::size_t>(d_)), u_(static_cast<std::size_t>(d_)) {
    detail::check_bandit_shape(s, "linucb_policy");
    if (!(alpha_ >= 0 && std::isfinite(alpha_))) throw std::invalid_argument("linucb_policy: alpha must be >= 0");
    for (int a = 0; a < k_; ++a)
      for (int i = 0; i < d_; ++i) inverse_of(a)[i * d_ + i] = 1.0;  // A = I
  }
  int choose(std::uint32_t x) {
    detail::bandit_features(x, d_ - 1, z_.data());
    int best = 0;
    double best_score = 0;
    for (int a = 0; a < k_; ++a) {
      const double* m = inverse(a);
      const double* b = &b_[static_cast<std::size_t>(a) * static_cast<std::size_t>(d_)];
      double mean = 0, width = 0;  // theta . z = (A^-1 b) . z = b . (A^-1 z) (A^-1 symmetric)
      for (int i = 0; i < d_; ++i) {
        double row = 0;
        for (int j = 0; j < d_; ++j) row += m[i * d_ + j] * z_[static_cast<std::size_t>(j)];
        mean += b[i] * row;
        width += z_[static_cast<std::size_t>(i)] * row;
      }
      const double score = mean + alpha_ * std::sqrt(std::max(width, 0.0));
      if (a == 0 || score > best_score) {
        best_score = score;
        best = a;
      }
    }
    return best;
  }
  void learn(std::uint32_t x, int a, double r) {
    detail::bandit_features(x, d_ - 1, z_.data());
    double* m = inverse_of(a);
    // u = A^-1 z; A^-1 -= u u^T / (1 + z . u).
    double denom = 1;
    for (int i = 0; i < d_; ++i) {
      double row = 0;
      for (int j = 0; j < d_; ++j) row += m[i * d_ + j] * z_[static_cast<std::size_t>(j)];
      u_[static_cast<std::size_t>(i)] = row;
      denom += z_[static_cast<std::size_t>(i)] * row;
    }
    for (int i = 0; i < d_; ++i)
      for (int j = 0; j < d_; ++j)
        m[i * d_ + j] -= u_[static_cast<std::size_t>(i)] * u_[static_cast<std::size_t>(j)] / denom;
    double* b = &b_[static_cast<std::size_t>(a) * static_cast<std::size_t>(d_)];
    for (int i = 0; i < d_; ++i) b[i] += r * z_[static_cast<std::size_t>(i)];
  }
  /// A_a^-1, row-major (d + 1) x (d + 1).
  const double* inverse(int a) const noexcept {
    return &a_inv_[static_cast<std::size_t>(a) * static_cast<std::size_t>(d_ * d_)];
  }

 private:
  double* inverse_of(int a) noexcept { return &a_inv_[static_cast<std::size_t>(a) * static_cast<std::size_t>(d_ * d_)]; }
  int d_, k_;
  double alpha_;
  std::vector<double> a_inv_, b_, z_, u_;
};

BEM_NAMESPACE_END
