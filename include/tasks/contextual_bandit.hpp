// The stochastic contextual bandit of bem_benchmark_suite_v0.0.1, section 5.1,
// and its piecewise-stationary form of section 5.2 (nonstationary_bandit,
// below: segment j draws its weights as in step 1 from
// derive_seed(seed, fnv1a64("bandit weights"), j), segment 0 being the
// stationary environment).
//
// K actions, contexts x in {0,1}^d, rounds t = 1..T. Everything is drawn from
// the run seed with bem's own PRNG, so a seed gives the same environment on
// every machine:
//   1. weights: one generator xoshiro256ss(derive_seed(seed, fnv1a64("bandit
//      weights"))); w_a,j = weight_scale * (2 * uniform01() - 1) for
//      a = 0..K-1, j = 0..d-1 in that order (uniform on [-scale, scale));
//   2. mean rewards: mu_a(x) = sigma(w_a . x) = 1 / (1 + exp(-sum_j w_a,j x_j)),
//      the spec's formula with the logistic sigma and no bias; x_j is bit j of
//      the context's number;
//   3. rounds: one generator xoshiro256ss(derive_seed(seed, fnv1a64("bandit
//      rounds"))); round t draws its context X_t = uniform_below(2^d) (P_X
//      uniform), then for a = 0..K-1 the reward R_t(a) = [uniform01() <
//      mu_a(X_t)] in {0, 1}: every action's reward is drawn, whichever the
//      policy takes, so every policy meets the same rewards (common random
//      numbers) and the environment does not depend on the policy.
// The oracle a*(x) = argmax_a mu_a(x) (the lowest a on a tie) is known, so
// the regret R_T = sum_t mu_a*(X_t) - mu_a_t(X_t) is exact (pseudo-regret:
// expected rewards, not the drawn ones), as section 5.1.2 defines it.
//
// Parameters (bem::parameters): d in [1, 16] (default 8; the spec's examples
// are 8 and 16), actions K in [2, 16] (default 4), weight_scale > 0 (default
// 1; ours, the spec leaves w_a open). The horizon belongs to the caller.
//
// Reproducibility: mu uses std::exp. Two C libraries whose exp differs in
// the last bit could draw a different reward where uniform01() falls within
// that bit of mu (probability about 2^-53 per draw); the contexts and the
// weights are exact everywhere.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/harness/reflected_parameters.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

/// The environment's shape.
struct contextual_bandit_spec {
  int d = 8;                  ///< context bits, 1..16
  int actions = 4;            ///< K, 2..16
  double weight_scale = 1.0;  ///< w_a,j uniform on [-weight_scale, weight_scale)
};

/// The environment's shape as a parameter struct.
struct contextual_bandit_parameters {
  BOOST_HANA_DEFINE_STRUCT(contextual_bandit_parameters, (int, d), (int, actions), (double, weight_scale));
  static void describe(parameter_schema<contextual_bandit_parameters>& s) {
    s("d", 8).in(1, 16).doc("context bits");
    s("actions", 4).in(2, 16).doc("K, the actions");
    s("weight_scale", 1.0).doc("w_a,j uniform on [-weight_scale, weight_scale); finite, > 0");
  }
};

/// Reads d, actions and weight_scale, checked at their keys.
inline contextual_bandit_spec contextual_bandit_spec_from(parameters& p) {
  const auto v = read_parameters<contextual_bandit_parameters>(p);
  if (!(v.weight_scale > 0 && std::isfinite(v.weight_scale)))
    throw parameter_error("weight_scale", "must be a finite number > 0");
  return {v.d, v.actions, v.weight_scale};
}

/// One round: its context and every action's reward (bit a = R_t(a)).
struct bandit_round {
  std::uint32_t context = 0;
  std::uint32_t rewards = 0;
};

/// The environment of one seed (see the header comment).
class contextual_bandit {
 public:
  /// The environment of `seed`; `segment` > 0 draws the weights of segment
  /// `segment` of a non-stationary run instead (the rounds stream is the same).
  contextual_bandit(const contextual_bandit_spec& s, std::uint64_t seed, std::uint64_t segment = 0)
      : spec_(s), contexts_(std::uint32_t{1} << s.d), rounds_rng_(derive_seed(seed, fnv1a64("bandit rounds"))) {
    xoshiro256ss w(derive_seed(seed, fnv1a64("bandit weights"), segment));
    weights_.resize(static_cast<std::size_t>(s.actions) * static_cast<std::size_t>(s.d));
    for (double& x : weights_) x = s.weight_scale * (2 * w.uniform01() - 1);
    mu_.resize(static_cast<std::size_t>(contexts_) * static_cast<std::size_t>(s.actions));
    best_.resize(contexts_);
    for (std::uint32_t x = 0; x < contexts_; ++x) {
      for (int a = 0; a < s.actions; ++a) {
        double z = 0;
        for (int j = 0; j < s.d; ++j)
          if ((x >> j) & 1u) z += weight(a, j);
        mu_[x * static_cast<std::size_t>(s.actions) + static_cast<std::size_t>(a)] = 1.0 / (1.0 + std::exp(-z));
      }
      int b = 0;
      for (int a = 1; a < s.actions; ++a)
        if (mean_reward(x, a) > mean_reward(x, b)) b = a;
      best_[x] = static_cast<std::uint8_t>(b);
    }
  }

  const contextual_bandit_spec& spec() const noexcept { return spec_; }
  int d() const noexcept { return spec_.d; }
  int actions() const noexcept { return spec_.actions; }
  /// 2^d.
  std::uint32_t contexts() const noexcept { return contexts_; }
  /// w_a,j.
  double weight(int a, int j) const noexcept {
    return weights_[static_cast<std::size_t>(a) * static_cast<std::size_t>(spec_.d) + static_cast<std::size_t>(j)];
  }
  /// mu_a(x).
  double mean_reward(std::uint32_t x, int a) const noexcept {
    return mu_[x * static_cast<std::size_t>(spec_.actions) + static_cast<std::size_t>(a)];
  }
  /// a*(x), the lowest best action.
  int best_action(std::uint32_t x) const noexcept { return best_[x]; }
  /// mu_a*(x) - mu_a(x) >= 0: the regret of taking a at x.
  double gap(std::uint32_t x, int a) const noexcept { return mean_reward(x, best_action(x)) - mean_reward(x, a); }

  /// The next round (the rounds stream, in order).
  bandit_round next_round() noexcept { return draw_round(rounds_rng_); }

  /// A round drawn from `rng` with these means: the context, then each
  /// action's reward.
  bandit_round draw_round(xoshiro256ss& rng) const noexcept {
    bandit_round r;
    r.context = static_cast<std::uint32_t>(rng.uniform_below(contexts_));
    for (int a = 0; a < spec_.actions; ++a)
      if (rng.uniform01() < mean_reward(r.context, a)) r.rewards |= std::uint32_t{1} << a;
    return r;
  }

  /// The next n rounds.
  std::vector<bandit_round> next_rounds(std::size_t n) {
    std::vector<bandit_round> v(n);
    for (auto& r : v) r = next_round();
    return v;
  }

 private:
  contextual_bandit_spec spec_;
  std::uint32_t contexts_;
  xoshiro256ss rounds_rng_;
  std::vector<double> weights_;
  std::vector<double> mu_;
  std::vector<std::uint8_t> best_;
};

/// Section 5.2: the same bandit in J + 1 piecewise-stationary segments. The T
/// rounds are cut into J + 1 segments of floor(T / (J + 1)) rounds, the last
/// taking the remainder; the change points are t_j = j * floor(T / (J + 1))
/// (0-based round numbers, j = 1..J). Segment j has weights of its own,
/// drawn as above from derive_seed(seed, fnv1a64("bandit weights"), j), so
/// segment 0 is the stationary environment of the seed; the rounds come from
/// the one "bandit rounds" stream, round t drawn with the means of its
/// segment. With J = 0 the rounds are the stationary environment's.
class nonstationary_bandit {
 public:
  nonstationary_bandit(const contextual_bandit_spec& s, int changes, std::int64_t rounds, std::uint64_t seed)
      : rounds_(rounds), rounds_rng_(derive_seed(seed, fnv1a64("bandit rounds"))) {
    if (changes < 0 || rounds < changes + 1)
      throw std::invalid_argument("nonstationary_bandit: need 0 <= changes < rounds");
    const std::int64_t length = rounds / (changes + 1);
    for (int j = 0; j <= changes; ++j) {
      segments_.emplace_back(s, seed, static_cast<std::uint64_t>(j));
      if (j > 0) change_points_.push_back(j * length);
    }
  }

  /// J.
  int changes() const noexcept { return static_cast<int>(change_points_.size()); }
  /// t_1 < ... < t_J, the first rounds of segments 1..J.
  const std::vector<std::int64_t>& change_points() const noexcept { return change_points_; }
  /// The segment that round t (0-based) belongs to.
  int segment_of(std::int64_t t) const noexcept {
    int j = 0;
    while (j < changes() && t >= change_points_[static_cast<std::size_t>(j)]) ++j;
    return j;
  }
  /// Segment j's environment (its means, oracle and gaps).
  const contextual_bandit& segment(int j) const { return segments_.at(static_cast<std::size_t>(j)); }
  /// The first round after segment j (T for the last).
  std::int64_t segment_end(int j) const noexcept {
    return j < changes() ? change_points_[static_cast<std::size_t>(j)] : rounds_;
  }

  /// All T rounds, in order.
  std::vector<bandit_round> draw_rounds() {
    std::vector<bandit_round> v(static_cast<std::size_t>(rounds_));
    for (int j = 0; j <= changes(); ++j) {
      const std::int64_t begin = j == 0 ? 0 : change_points_[static_cast<std::size_t>(j - 1)];
      for (std::int64_t t = begin; t < segment_end(j); ++t)
        v[static_cast<std::size_t>(t)] = segments_[static_cast<std::size_t>(j)].draw_round(rounds_rng_);
    }
    return v;
  }

 private:
  std::int64_t rounds_;
  xoshiro256ss rounds_rng_;
  std::vector<contextual_bandit> segments_;
  std::vector<std::int64_t> change_points_;
};

}  // namespace tasks
BEM_NAMESPACE_END
