// ROUTE_SELECT and STATS_UPDATE (fast path) and the mid-path log-weights, in
// fixed point (bem/machine/fixed_point.hpp): every machine makes the same
// choices from the same history, bit for bit.
//
// The learning state Theta_L (part of SHARED; `image()` gives its bytes):
//   visits_{tau,i}   uint64   visits of expert i under task tau
//   wins_{tau,i}     uint64   Q48.16: the sum of its rewards (each in [0, 1])
//   N_tau            uint64   visits of task tau
//   z_i              int32    Q16.16: expert i's log-weight (saturating)
//   Lp_i             uint64   Q48.16: loss (1 - reward) summed since the last
//                             mid-path update
//   Vp_i             uint64   visits since the last mid-path update
//   S                uint64   Q32.32: the sum of the squared clipped mean
//                             losses of every update so far (saturating)
//
// Fast path, per step and task tau: each routing candidate i is scored by UCB1
//     mean_i  = floor(wins_i / max(1, visits_i))                      (Q16.16)
//     ratio_i = floor(ln_q16(max(1, N_tau)) / max(1, visits_i))        (Q16.16)
//     score_i = mean_i + round(c_explore * sqrt_q16(ratio_i) / 2^16)   (Q16.16)
// with c_explore in Q16.16; the top k_small (1..4) candidates are taken, ties
// kept in the router's order (most similar first), so an unexplored machine
// routes by similarity. Alternatively one candidate is sampled with
// probability proportional to exp(z_i + score_i): with m the largest
// z_i + score_i, each candidate weighs w_i = exp_neg_q32(m - z_i - score_i)
// (Q0.32), and with u = uniform_below(sum of w_i) from the caller's
// xoshiro256** the first candidate whose running sum of weights exceeds u is
// chosen. STATS_UPDATE (a reward r in [0, 1], as Q16.16 raw in [0, 65536];
// doubles are converted by q16_16::from_double) adds 1 to visits_i, r to
// wins_i, 1 to N_tau, 2^16 - r to Lp_i and 1 to Vp_i.
//
// Mid path (BEM core §mid path), for every expert i with Vp_i > 0, in slot
// order, then again for the steps:
//     g_i   = min(floor(Lp_i / Vp_i), L_max)        (Q16.16; losses are >= 0)
//     S    += g_i^2                                 (Q32.32, exact)
//     eta   = floor(c_eta * 2^16 / max(1, isqrt(S + eps)))     (Q16.16)
//     z_i  -= min(round(eta * g_i / 2^16), dz_max)  (saturating)
// and Lp_i = Vp_i = 0. S is our reading of the spec's "S": one accumulator
// for all experts (an exponential-weights update with an adaptive rate): a
// per-expert S_i = sum g_i^2 would normalise each expert's loss away (its
// first step is c_eta whatever g_i), and z would count updates instead of
// ranking experts. S is summed before eta is taken, so the update does not
// depend on the order of the slots. Parameters (ucb_parameters,
// log_weight_parameters) are given as doubles and converted once by
// q16_16::from_double (eps to Q32.32 the same way, at least 1).
// tests/machine/fixed_point_model.py computes this rule from this text in
// Python; the tests pin a seeded run's action sequence to its output.
//
// Costs: select is O(k_large) and update O(1) per chosen expert, independent
// of the step count — the fast-path bound of the core spec. Statistics live in
// a table indexed by (task, expert slot) sized once.
#pragma once

#include <bem/machine/fixed_point.hpp>
#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

struct ucb_parameters {
  double c_explore = 1.4142135623730951;  ///< sqrt(2), UCB1's classic constant; finite, >= 0
};

struct log_weight_parameters {
  double c_eta = 0.1;     ///< finite, >= 0
  double eps = 1e-8;      ///< finite, > 0 (becomes at least 2^-32)
  double loss_max = 1.0;  ///< L_max, >= 0 (+infinity: no clipping)
  double step_max = 0.5;  ///< dz_max, >= 0 (+infinity: no clipping)
};

/// Throws std::invalid_argument unless the parameters are as documented on
/// log_weight_parameters.
inline void check_log_weight_parameters(const log_weight_parameters& p) {
  if (!(p.c_eta >= 0.0 && std::isfinite(p.c_eta)) || !(p.eps > 0.0 && std::isfinite(p.eps)) || !(p.loss_max >= 0.0) ||
      !(p.step_max >= 0.0))
    throw std::invalid_argument(
        "log_weight_parameters: need finite c_eta >= 0, finite eps > 0, loss_max >= 0 and step_max >= 0");
}

/// The UCB parameters in fixed point.
struct ucb_fixed {
  std::uint32_t c_explore_raw = 0;  ///< Q16.16

  static ucb_fixed from(const ucb_parameters& p) {
    if (!(p.c_explore >= 0.0 && std::isfinite(p.c_explore)))
      throw std::invalid_argument("ucb_parameters: c_explore must be finite and >= 0");
    return {static_cast<std::uint32_t>(q16_16::from_double(p.c_explore).raw)};
  }
  friend bool operator==(const ucb_fixed&, const ucb_fixed&) = default;
};

/// The mid path's parameters in fixed point.
struct log_weight_fixed {
  std::uint32_t c_eta_raw = 0;     ///< Q16.16
  std::uint64_t eps_raw = 1;       ///< Q32.32, >= 1
  std::uint32_t loss_max_raw = 0;  ///< Q16.16
  std::uint32_t step_max_raw = 0;  ///< Q16.16

  static log_weight_fixed from(const log_weight_parameters& p) {
    check_log_weight_parameters(p);
    log_weight_fixed f;
    f.c_eta_raw = static_cast<std::uint32_t>(q16_16::from_double(p.c_eta).raw);
    const double e = std::round(p.eps * 4294967296.0);
    f.eps_raw = e < 1.0 ? 1 : e >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(e);
    f.loss_max_raw = static_cast<std::uint32_t>(q16_16::from_double(p.loss_max).raw);
    f.step_max_raw = static_cast<std::uint32_t>(q16_16::from_double(p.step_max).raw);
    return f;
  }
  friend bool operator==(const log_weight_fixed&, const log_weight_fixed&) = default;
};

/// Per-(task, expert) bandit statistics and per-expert log-weights.
class selection_table {
 public:
  selection_table(std::size_t tasks, std::size_t experts)
      : tasks_(tasks), experts_(experts), visits_(tasks * experts, 0), wins_(tasks * experts, 0),
        task_visits_(tasks, 0), z_(experts, 0), pending_loss_(experts, 0), pending_visits_(experts, 0) {
    if (tasks == 0 || experts == 0) throw std::invalid_argument("selection_table needs at least one task and expert");
  }

  std::size_t tasks() const noexcept { return tasks_; }
  std::size_t experts() const noexcept { return experts_; }

  std::uint64_t visits(std::size_t task, std::size_t expert) const { return visits_[at(task, expert)]; }
  /// wins_{tau,i} in Q48.16.
  std::uint64_t wins_raw(std::size_t task, std::size_t expert) const { return wins_[at(task, expert)]; }
  double wins(std::size_t task, std::size_t expert) const {
    return static_cast<double>(wins_raw(task, expert)) / q16_16::scale;
  }
  std::uint64_t task_visits(std::size_t task) const { return task_visits_.at(task); }
  q16_16 log_weight(std::size_t expert) const { return q16_16::from_raw(z_.at(expert)); }
  /// S in Q32.32.
  std::uint64_t loss_accumulator_raw() const noexcept { return s_; }
  double loss_accumulator() const noexcept { return static_cast<double>(s_) / 4294967296.0; }

  /// UCB1 score of an expert under a task, in Q16.16 (file comment).
  std::int64_t score_raw(std::size_t task, std::size_t expert, const ucb_fixed& p) const {
    const std::size_t i = at(task, expert);
    return score_given_ln(i, ln_of_task(task), p);
  }
  double score(std::size_t task, std::size_t expert, const ucb_parameters& p = {}) const {
    return static_cast<double>(score_raw(task, expert, ucb_fixed::from(p))) / q16_16::scale;
  }

  /// The k best candidates by UCB1, written to `out` in rank order; returns
  /// how many were written (min(k, candidates)). Ties keep the candidates'
  /// order: the router's, most similar first, so a machine whose experts are
  /// all unvisited (equal scores) picks the closest ones, not the oldest.
  std::size_t select_top(std::size_t task, std::span<const std::uint32_t> candidates, std::size_t k,
                         std::span<std::uint32_t> out, const ucb_fixed& p) const {
    k = std::min({k, candidates.size(), out.size()});
    // k_small <= 4 and k_large <= 64: a partial insertion keeps this O(k_large * k_small).
    std::size_t filled = 0;
    std::int64_t best[64];
    if (k > 64) throw std::invalid_argument("select_top: k_small above 64");
    const std::uint64_t ln_n = ln_of_task(task);  // once per query: N_tau is the same for every candidate
    for (const auto c : candidates) {
      const std::int64_t s = score_given_ln(at(task, c), ln_n, p);
      std::size_t pos = filled;
      while (pos > 0 && s > best[pos - 1]) --pos;
      if (pos >= k) continue;
      const std::size_t last = std::min(filled, k - 1);
      for (std::size_t j = last; j > pos; --j) {
        best[j] = best[j - 1];
        out[j] = out[j - 1];
      }
      best[pos] = s;
      out[pos] = c;
      if (filled < k) ++filled;
    }
    return filled;
  }

  /// One candidate drawn with probability proportional to exp(z_i + score_i)
  /// (file comment); draws one uniform_below from `rng`.
  std::uint32_t sample(std::size_t task, std::span<const std::uint32_t> candidates, xoshiro256ss& rng,
                       const ucb_fixed& p) const {
    if (candidates.empty()) throw std::invalid_argument("sample: no candidates");
    if (candidates.size() > 256) throw std::invalid_argument("sample: more than 256 candidates");
    std::int64_t logit[256];
    std::int64_t m = std::numeric_limits<std::int64_t>::min();
    const std::uint64_t ln_n = ln_of_task(task);
    for (std::size_t j = 0; j < candidates.size(); ++j) {
      const std::int64_t score = score_given_ln(at(task, candidates[j]), ln_n, p);  // checks the range before z_ is read
      logit[j] = std::int64_t{z_[candidates[j]]} + score;
      m = std::max(m, logit[j]);
    }
    std::uint64_t total = 0;
    for (std::size_t j = 0; j < candidates.size(); ++j)
      total += fixed::exp_neg_q32(static_cast<std::uint64_t>(m - logit[j]));
    // The largest logit weighs 2^32, so total >= 2^32 > 0.
    std::uint64_t u = rng.uniform_below(total);
    for (std::size_t j = 0; j < candidates.size(); ++j) {
      const std::uint64_t w = fixed::exp_neg_q32(static_cast<std::uint64_t>(m - logit[j]));
      if (u < w) return candidates[j];
      u -= w;
    }
    return candidates.back();  // unreachable: u < total
  }

  /// STATS_UPDATE: one visit of `expert` under `task` with a reward in
  /// [0, 1] as Q16.16 raw in [0, 65536]. Throws, changing nothing:
  /// std::out_of_range for a task or expert outside the table,
  /// std::invalid_argument for a reward outside [0, 65536].
  void record_raw(std::size_t task, std::size_t expert, std::uint32_t reward_raw) {
    const std::size_t i = at(task, expert);
    if (reward_raw > static_cast<std::uint32_t>(q16_16::one_raw))
      throw std::invalid_argument("selection_table::record: reward raw " + std::to_string(reward_raw) +
                                  " is not in [0, 65536] (Q16.16 for [0, 1])");
    ++visits_[i];
    wins_[i] += reward_raw;
    ++task_visits_[task];
    pending_loss_[expert] += static_cast<std::uint32_t>(q16_16::one_raw) - reward_raw;
    ++pending_visits_[expert];
  }
  /// The same with a reward in [0, 1] as a double (NaN and values outside
  /// [0, 1] throw std::invalid_argument, changing nothing).
  void record(std::size_t task, std::size_t expert, double reward) {
    (void)at(task, expert);  // range first, as record_raw would
    if (!(reward >= 0.0 && reward <= 1.0))
      throw std::invalid_argument("selection_table::record: reward " + std::to_string(reward) + " is not in [0, 1]");
    record_raw(task, expert, static_cast<std::uint32_t>(q16_16::from_double(reward).raw));
  }

  /// The mid-path log-weight update of every expert with pending visits;
  /// returns how many were updated.
  std::size_t update_log_weights(const log_weight_fixed& p) {
    // First pass: g_i (kept in pending_loss_) and S; second: the steps.
    std::size_t updated = 0;
    for (std::size_t i = 0; i < experts_; ++i) {
      if (pending_visits_[i] == 0) continue;
      const std::uint64_t g = std::min<std::uint64_t>(pending_loss_[i] / pending_visits_[i], p.loss_max_raw);
      pending_loss_[i] = g;
      const std::uint64_t g2 = g * g;  // g <= 2^31: fits
      s_ = s_ > std::numeric_limits<std::uint64_t>::max() - g2 ? std::numeric_limits<std::uint64_t>::max() : s_ + g2;
      ++updated;
    }
    if (updated == 0) return 0;
    const std::uint64_t se = s_ > std::numeric_limits<std::uint64_t>::max() - p.eps_raw
                                 ? std::numeric_limits<std::uint64_t>::max()
                                 : s_ + p.eps_raw;
    const std::uint64_t eta = (std::uint64_t{p.c_eta_raw} << 16) / std::max<std::uint64_t>(1, fixed::isqrt(se));
    for (std::size_t i = 0; i < experts_; ++i) {
      if (pending_visits_[i] == 0) continue;
      const fixed::uint128 product = static_cast<fixed::uint128>(eta) * pending_loss_[i] + (1u << 15);
      const std::uint64_t rounded = product >> 80 ? std::numeric_limits<std::uint64_t>::max()
                                                  : static_cast<std::uint64_t>(product >> 16);
      const std::uint64_t step = std::min<std::uint64_t>(rounded, p.step_max_raw);
      z_[i] = q16_16::saturate(std::int64_t{z_[i]} - static_cast<std::int64_t>(step)).raw;
      pending_loss_[i] = 0;
      pending_visits_[i] = 0;
    }
    return updated;
  }
  std::size_t update_log_weights(const log_weight_parameters& p = {}) {
    return update_log_weights(log_weight_fixed::from(p));
  }

  /// The learning state's bytes (all fields in the order of the file
  /// comment, little-endian): equal tables have equal images.
  std::vector<std::uint8_t> image() const {
    std::vector<std::uint8_t> out;
    const auto put = [&](std::uint64_t v, int bytes) {
      for (int b = 0; b < bytes; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
    };
    put(tasks_, 8);
    put(experts_, 8);
    for (auto v : visits_) put(v, 8);
    for (auto v : wins_) put(v, 8);
    for (auto v : task_visits_) put(v, 8);
    for (auto v : z_) put(static_cast<std::uint32_t>(v), 4);
    for (auto v : pending_loss_) put(v, 8);
    for (auto v : pending_visits_) put(v, 8);
    put(s_, 8);
    return out;
  }

  friend bool operator==(const selection_table&, const selection_table&) = default;

 private:
  std::uint64_t ln_of_task(std::size_t task) const {
    if (task >= tasks_) throw std::out_of_range("selection_table: task or expert out of range");
    return fixed::ln_q16(std::max<std::uint64_t>(1, task_visits_[task]));
  }
  /// UCB1 of statistics index i with ln(max(1, N_tau)) given (Q16.16).
  std::int64_t score_given_ln(std::size_t i, std::uint64_t ln_n, const ucb_fixed& p) const {
    const std::uint64_t v = std::max<std::uint64_t>(1, visits_[i]);
    const std::uint64_t mean = wins_[i] / v;
    const std::uint64_t explore = (std::uint64_t{p.c_explore_raw} * fixed::sqrt_q16(ln_n / v) + (1u << 15)) >> 16;
    return static_cast<std::int64_t>(mean + explore);
  }

  std::size_t at(std::size_t task, std::size_t expert) const {
    if (task >= tasks_ || expert >= experts_) throw std::out_of_range("selection_table: task or expert out of range");
    return task * experts_ + expert;
  }

  std::size_t tasks_, experts_;
  std::vector<std::uint64_t> visits_;
  std::vector<std::uint64_t> wins_;  ///< Q48.16
  std::vector<std::uint64_t> task_visits_;
  std::vector<std::int32_t> z_;  ///< Q16.16
  std::vector<std::uint64_t> pending_loss_;  ///< Q48.16; g_i between the passes of an update
  std::vector<std::uint64_t> pending_visits_;
  std::uint64_t s_ = 0;  ///< S, Q32.32, shared by all experts
};

BEM_NAMESPACE_END
