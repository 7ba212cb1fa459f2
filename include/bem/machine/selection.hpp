// ROUTE_SELECT and STATS_UPDATE (fast path) and the mid-path log-weights.
//
// Fast path, per step and task tau: each routing candidate i is scored by UCB1
//     score_i = wins_i / max(1, visits_i)
//             + c_explore * sqrt(log(max(1, N_tau)) / max(1, visits_i)),
// where visits_i, wins_i are the expert's statistics under task tau and N_tau
// the task's total visits; the top k_small (1..4) candidates are taken, ties
// kept in the router's order (most similar first), so a run is reproducible
// and an unexplored machine routes by similarity. Alternatively one
// candidate is sampled with probability proportional to exp(z_i + score_i)
// (softmax over log-weight plus score) from the caller's generator.
// STATS_UPDATE bumps visits_i, adds the reward to wins_i and bumps N_tau.
//
// Mid path (BEM core §mid path), for every expert i with visits since the
// last update, L_i its accumulated loss (1 - reward) over those visits:
//     g_i   = clip(L_i / visits_i, -L_max, +L_max)
//     S    += sum_i g_i^2                    (one accumulator for all experts)
//     eta   = c_eta / sqrt(S + eps)
//     z_i  -= clip(eta * g_i, -dz_max, +dz_max)
// S is our reading of the spec's "S": the sum of squared clipped mean losses
// of every update so far, which makes eta shrink as evidence accumulates. It
// is shared (an exponential-weights update with an adaptive rate), not kept
// per expert: losses lie in [0, 1], so a per-expert S_i = sum g_i^2 would
// normalise each expert's loss away (its first step is c_eta whatever g_i,
// and with a steady loss every step is c_eta / sqrt(k)) and z would count
// updates, not rank experts. S is summed before eta is taken, so the update
// does not depend on the order of the slots.
//
// Costs: select is O(k_large) and update O(1) per chosen expert, independent
// of the step count — the fast-path bound of the core spec. Statistics live in
// a table indexed by (task, expert slot) sized once.
#pragma once

#include <bem/prng.hpp>
#include <bem/version.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

struct ucb_parameters {
  double c_explore = 1.4142135623730951;  ///< sqrt(2), UCB1's classic constant
};

struct log_weight_parameters {
  double c_eta = 0.1;     ///< finite, >= 0
  double eps = 1e-8;      ///< finite, > 0 (eta = c_eta / sqrt(S + eps) with S = 0 and g = 0 is inf * 0)
  double loss_max = 1.0;  ///< L_max, >= 0 (+infinity: no clipping)
  double step_max = 0.5;  ///< dz_max, >= 0 (+infinity: no clipping)
};

/// Throws std::invalid_argument unless the parameters are as documented on
/// log_weight_parameters: a negative bound would make std::clamp's range
/// empty (undefined behaviour), eps = 0 turns a zero gradient into NaN.
inline void check_log_weight_parameters(const log_weight_parameters& p) {
  if (!(p.c_eta >= 0.0 && std::isfinite(p.c_eta)) || !(p.eps > 0.0 && std::isfinite(p.eps)) || !(p.loss_max >= 0.0) ||
      !(p.step_max >= 0.0))
    throw std::invalid_argument(
        "log_weight_parameters: need finite c_eta >= 0, finite eps > 0, loss_max >= 0 and step_max >= 0");
}

/// Per-(task, expert) bandit statistics and per-expert log-weights.
class selection_table {
 public:
  selection_table(std::size_t tasks, std::size_t experts)
      : tasks_(tasks), experts_(experts), visits_(tasks * experts, 0), wins_(tasks * experts, 0.0),
        task_visits_(tasks, 0), z_(experts, 0.0), pending_loss_(experts, 0.0),
        pending_visits_(experts, 0) {
    if (tasks == 0 || experts == 0) throw std::invalid_argument("selection_table needs at least one task and expert");
  }

  std::size_t tasks() const noexcept { return tasks_; }
  std::size_t experts() const noexcept { return experts_; }

  std::uint64_t visits(std::size_t task, std::size_t expert) const { return visits_[at(task, expert)]; }
  double wins(std::size_t task, std::size_t expert) const { return wins_[at(task, expert)]; }
  std::uint64_t task_visits(std::size_t task) const { return task_visits_.at(task); }
  double log_weight(std::size_t expert) const { return z_.at(expert); }

  /// UCB1 score of an expert under a task.
  double score(std::size_t task, std::size_t expert, const ucb_parameters& p = {}) const {
    const double v = static_cast<double>(std::max<std::uint64_t>(1, visits_[at(task, expert)]));
    const double n = static_cast<double>(std::max<std::uint64_t>(1, task_visits_[task]));
    return wins_[at(task, expert)] / v + p.c_explore * std::sqrt(std::log(n) / v);
  }

  /// The k best candidates by UCB1, written to `out` in rank order; returns
  /// how many were written (min(k, candidates)). Ties keep the candidates'
  /// order: the router's, most similar first, so a machine whose experts are
  /// all unvisited (equal scores) picks the closest ones, not the oldest.
  std::size_t select_top(std::size_t task, std::span<const std::uint32_t> candidates, std::size_t k,
                         std::span<std::uint32_t> out, const ucb_parameters& p = {}) const {
    k = std::min({k, candidates.size(), out.size()});
    // k_small <= 4 and k_large <= 64: a partial insertion keeps this O(k_large * k_small).
    std::size_t filled = 0;
    double best[64];
    if (k > 64) throw std::invalid_argument("select_top: k_small above 64");
    for (const auto c : candidates) {
      const double s = score(task, c, p);
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

  /// One candidate drawn with probability proportional to exp(z_i + score_i).
  std::uint32_t sample(std::size_t task, std::span<const std::uint32_t> candidates, xoshiro256ss& rng,
                       const ucb_parameters& p = {}) const {
    if (candidates.empty()) throw std::invalid_argument("sample: no candidates");
    // z + score, with score's range check before z is read.
    const auto logit = [&](std::uint32_t c) {
      const double s = score(task, c, p);
      return z_[c] + s;
    };
    double m = -INFINITY;
    for (auto c : candidates) m = std::max(m, logit(c));
    double total = 0;
    for (auto c : candidates) total += std::exp(logit(c) - m);
    double u = rng.uniform01() * total;
    for (auto c : candidates) {
      u -= std::exp(logit(c) - m);
      if (u < 0) return c;
    }
    return candidates.back();
  }

  /// STATS_UPDATE: one visit of `expert` under `task` with a reward in [0, 1];
  /// the loss (1 - reward) accumulates for the next mid-path update. Throws,
  /// changing nothing: std::out_of_range for a task or expert outside the
  /// table, std::invalid_argument for a reward outside [0, 1] or NaN.
  void record(std::size_t task, std::size_t expert, double reward) {
    const std::size_t i = at(task, expert);
    if (!(reward >= 0.0 && reward <= 1.0))
      throw std::invalid_argument("selection_table::record: reward " + std::to_string(reward) +
                                  " is not in [0, 1]");
    ++visits_[i];
    wins_[i] += reward;
    ++task_visits_[task];
    pending_loss_[expert] += 1.0 - reward;
    ++pending_visits_[expert];
  }

  /// The mid-path log-weight update of every expert with pending visits.
  /// Throws std::invalid_argument, changing nothing, for parameters that
  /// check_log_weight_parameters refuses.
  void update_log_weights(const log_weight_parameters& p = {}) {
    check_log_weight_parameters(p);
    // First pass: g_i (kept in pending_loss_) and S; second: the steps.
    for (std::size_t i = 0; i < experts_; ++i) {
      if (pending_visits_[i] == 0) continue;
      const double g = std::clamp(pending_loss_[i] / static_cast<double>(pending_visits_[i]), -p.loss_max, p.loss_max);
      pending_loss_[i] = g;
      s_ += g * g;
    }
    const double eta = p.c_eta / std::sqrt(s_ + p.eps);
    for (std::size_t i = 0; i < experts_; ++i) {
      if (pending_visits_[i] == 0) continue;
      z_[i] -= std::clamp(eta * pending_loss_[i], -p.step_max, p.step_max);
      pending_loss_[i] = 0;
      pending_visits_[i] = 0;
    }
  }

  /// S: the sum of the squared clipped mean losses of every update so far.
  double loss_accumulator() const noexcept { return s_; }

 private:
  std::size_t at(std::size_t task, std::size_t expert) const {
    if (task >= tasks_ || expert >= experts_) throw std::out_of_range("selection_table: task or expert out of range");
    return task * experts_ + expert;
  }

  std::size_t tasks_, experts_;
  std::vector<std::uint64_t> visits_;
  std::vector<double> wins_;
  std::vector<std::uint64_t> task_visits_;
  std::vector<double> z_, pending_loss_;
  std::vector<std::uint64_t> pending_visits_;
  double s_ = 0.0;  ///< S, shared by all experts
};

BEM_NAMESPACE_END
