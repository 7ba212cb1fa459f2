// The policies of the contextual bandits of BEM suite sections 5.1 and 5.2
// (tasks/contextual_bandit.hpp): the BEM (bem/learn/bem_bandit.hpp, on
// bem::machine) and seven baselines a reader of the regret tables expects
// beside it. The concept and its laws: bem/learn/bandit_policy.hpp.
//
// What each baseline does (d context bits, K actions; z = (x_0, ..., x_{d-1},
// 1) where a policy reads features; ties go to the lowest action):
//   uniform_policy      a uniform action (its own xoshiro256ss); learns nothing.
//   ucb1_per_context    classic UCB1 per context: each untried action first
//                       (lowest number first), then argmax mean + c sqrt(ln n_x / n_x,a).
//   discounted_ucb1     UCB1 per context on statistics discounted by gamma at
//                       each visit of the context (for section 5.2's changes).
//   epsilon_greedy_logistic   a logistic model per action on z, one SGD step
//                       per round on the taken action's log-loss
//                       (theta += lr (r - sigma(theta . z)) z); with
//                       probability epsilon a uniform action, else the
//                       highest theta . z.
//   linucb              disjoint LinUCB (Li, Chu, Langford, Schapire 2010):
//                       per action A = I + sum z z^T, b = sum r z, the action
//                       maximising theta . z + alpha sqrt(z^T A^-1 z) with
//                       theta = A^-1 b; A^-1 kept by the Sherman-Morrison update.
//   sw_linucb           sliding-window LinUCB (Cheung, Simchi-Levi and Zhu
//                       2019; disjoint per action): the same over the last
//                       `window` rounds only, A = lambda I + sum over the
//                       window, solved by Cholesky each round.
//   d_linucb            discounted LinUCB (Russac, Vernade and Cappe 2019,
//                       disjoint per action): every round every action's
//                       V = gamma V + (1 - gamma) lambda I, V~ = gamma^2 V~ +
//                       (1 - gamma^2) lambda I, b = gamma b, then the taken
//                       action adds z z^T to both and r z to b; the action
//                       maximising theta . z + alpha sqrt(z^T V^-1 V~ V^-1 z),
//                       theta = V^-1 b.
// Hyperparameters are ours where the spec names none (bandit_policy_settings;
// docs/bandits.md gives the reasons).
#pragma once

#include <bem/detail/cholesky.hpp>
#include <bem/learn/bandit_policy.hpp>
#include <bem/learn/bem_bandit.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

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
    detail::sherman_morrison_add(inverse_of(a), z_.data(), static_cast<std::size_t>(d_), u_.data());
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

namespace detail {
/// Solves M y = rhs for a symmetric positive definite n x n M (row-major),
/// by Cholesky; `work` is scratch of n * n.
inline void solve_spd(std::size_t n, const double* m, const double* rhs, double* y, std::vector<double>& work) {
  work.assign(m, m + n * n);
  cholesky_in_place(work.data(), n, 1e-300);
  std::copy(rhs, rhs + n, y);
  cholesky_solve_in_place(work.data(), n, y);
}

/// Per-action ridge matrices solved each round: the common part of the
/// non-stationary LinUCBs (they differ in how the matrices age).
class solved_linucb {
 public:
  solved_linucb(const bandit_shape& s, double alpha, double lambda, const char* who)
      : n_(static_cast<std::size_t>(s.d + 1)), k_(s.actions), alpha_(alpha), lambda_(lambda),
        v_(static_cast<std::size_t>(s.actions) * n_ * n_, 0.0), b_(static_cast<std::size_t>(s.actions) * n_, 0.0),
        z_(n_), y_(n_), u_(n_) {
    check_bandit_shape(s, who);
    if (!(alpha_ >= 0 && std::isfinite(alpha_))) throw std::invalid_argument(std::string(who) + ": alpha must be >= 0");
    if (!(lambda_ > 0 && std::isfinite(lambda_)))
      throw std::invalid_argument(std::string(who) + ": prior_precision must be finite and > 0");
    for (int a = 0; a < k_; ++a)
      for (std::size_t i = 0; i < n_; ++i) v(a)[i * n_ + i] = lambda_;
  }
  /// argmax_a theta_a . z + alpha width_a(z), width^2 = z^T V^-1 C V^-1 z
  /// with C = `confidence(a)` (V itself for the sliding window: z^T V^-1 z).
  template <class Confidence>
  int choose(std::uint32_t x, Confidence confidence) {
    bandit_features(x, static_cast<int>(n_) - 1, z_.data());
    int best = 0;
    double best_score = 0;
    for (int a = 0; a < k_; ++a) {
      solve_spd(n_, v(a), z_.data(), y_.data(), work_);  // y = V^-1 z
      const double* c = confidence(a);
      double mean = 0, width = 0;
      for (std::size_t i = 0; i < n_; ++i) {
        mean += b(a)[i] * y_[i];  // theta . z = b . V^-1 z (V symmetric)
        if (c == v(a)) {
          width += z_[i] * y_[i];
        } else {
          double row = 0;
          for (std::size_t j = 0; j < n_; ++j) row += c[i * n_ + j] * y_[j];
          width += y_[i] * row;
        }
      }
      const double score = mean + alpha_ * std::sqrt(std::max(width, 0.0));
      if (a == 0 || score > best_score) {
        best_score = score;
        best = a;
      }
    }
    return best;
  }
  /// Adds sign (z z^T) to V_a (and to `also`, if given) and sign r z to b_a.
  void add(std::uint32_t x, int a, double r, double sign, double* also = nullptr) {
    bandit_features(x, static_cast<int>(n_) - 1, u_.data());
    for (std::size_t i = 0; i < n_; ++i) {
      b(a)[i] += sign * r * u_[i];
      for (std::size_t j = 0; j < n_; ++j) {
        v(a)[i * n_ + j] += sign * u_[i] * u_[j];
        if (also) also[i * n_ + j] += sign * u_[i] * u_[j];
      }
    }
  }
  double* v(int a) noexcept { return &v_[static_cast<std::size_t>(a) * n_ * n_]; }
  double* b(int a) noexcept { return &b_[static_cast<std::size_t>(a) * n_]; }
  std::size_t n() const noexcept { return n_; }
  int actions() const noexcept { return k_; }
  double lambda() const noexcept { return lambda_; }

 private:
  std::size_t n_;
  int k_;
  double alpha_, lambda_;
  std::vector<double> v_, b_, z_, y_, u_, work_;
};
}  // namespace detail

/// Sliding-window LinUCB: the last `window` rounds only.
class sliding_window_linucb_policy {
 public:
  static constexpr const char* name = "sw_linucb";
  static constexpr bool learns = true;
  sliding_window_linucb_policy(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t)
      : lin_(s, p.alpha, p.prior_precision, "sliding_window_linucb_policy") {
    if (p.window < 1) throw std::invalid_argument("sliding_window_linucb_policy: window must be >= 1");
    window_.resize(static_cast<std::size_t>(p.window));
  }
  int choose(std::uint32_t x) {
    return lin_.choose(x, [&](int a) -> const double* { return lin_.v(a); });
  }
  void learn(std::uint32_t x, int a, double r) {
    auto& slot = window_[static_cast<std::size_t>(rounds_ % window_.size())];
    if (rounds_ >= window_.size()) lin_.add(slot.x, slot.a, slot.r, -1.0);  // the round leaving the window
    lin_.add(x, a, r, 1.0);
    slot = {x, a, r};
    ++rounds_;
  }

 private:
  struct logged {
    std::uint32_t x = 0;
    int a = 0;
    double r = 0;
  };
  detail::solved_linucb lin_;
  std::vector<logged> window_;
  std::size_t rounds_ = 0;
};

/// Discounted LinUCB (D-LinUCB).
class discounted_linucb_policy {
 public:
  static constexpr const char* name = "d_linucb";
  static constexpr bool learns = true;
  discounted_linucb_policy(const bandit_shape& s, const bandit_policy_settings& p, std::uint64_t)
      : lin_(s, p.alpha, p.prior_precision, "discounted_linucb_policy"), gamma_(p.forgetting),
        tilde_(static_cast<std::size_t>(s.actions) * lin_.n() * lin_.n(), 0.0) {
    if (!(gamma_ > 0 && gamma_ <= 1)) throw std::invalid_argument("discounted_linucb_policy: forgetting must lie in (0, 1]");
    for (int a = 0; a < lin_.actions(); ++a)
      for (std::size_t i = 0; i < lin_.n(); ++i) tilde(a)[i * lin_.n() + i] = lin_.lambda();
  }
  int choose(std::uint32_t x) {
    return lin_.choose(x, [&](int a) -> const double* { return tilde(a); });
  }
  void learn(std::uint32_t x, int a, double r) {
    const std::size_t n = lin_.n();
    const double g2 = gamma_ * gamma_;
    for (int c = 0; c < lin_.actions(); ++c) {
      double* v = lin_.v(c);
      double* t = tilde(c);
      for (std::size_t i = 0; i < n * n; ++i) {
        v[i] *= gamma_;
        t[i] *= g2;
      }
      for (std::size_t i = 0; i < n; ++i) {
        v[i * n + i] += (1 - gamma_) * lin_.lambda();
        t[i * n + i] += (1 - g2) * lin_.lambda();
        lin_.b(c)[i] *= gamma_;
      }
    }
    lin_.add(x, a, r, 1.0, tilde(a));
  }

 private:
  double* tilde(int a) noexcept { return &tilde_[static_cast<std::size_t>(a) * lin_.n() * lin_.n()]; }
  detail::solved_linucb lin_;
  double gamma_;
  std::vector<double> tilde_;
};

BEM_NAMESPACE_END
