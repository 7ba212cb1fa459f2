// BEM suite sections 5.1 and 5.2, the stochastic contextual bandit and its
// piecewise-stationary form, as the benchmarks `contextual_bandit` and
// `nonstationary_bandit`: each policy of bem/learn/bandit_policies.hpp (the BEM on
// bem::machine and the baselines) plays T rounds of the environment of
// tasks/contextual_bandit.hpp, drawn once per seed, so every policy meets the
// same contexts and rewards. contextual_bandit is the case J = 0.
//
// Per policy, the T rounds run once, timed as a whole: choose(X_t), the
// reward R_t(a_t), learn(X_t, a_t, R_t), the regret gap added. Then the same
// T learn calls are replayed on a fresh policy (law 3 of bandit_policy: the
// updates do not depend on the choices in between), timed alone. Records,
// split "policy=NAME", condition {policy, d, actions, T, (J,) the policy's
// hyperparameters}; n counts rounds:
//   regret                    R_T = sum_t mu*_t(X_t) - mu_{a_t}(X_t), the
//                             means of round t's segment (5.1.2)
//   normalized_regret         R_T / T
//   regret_at_t               R_t at t = 10, 20, 50, 100, 200, 500, ... and T
//                             (split "policy=NAME,t=1000", condition t): the
//                             regret curve, log-spaced for a log-log plot
//   optimal_action_rate       rounds with a_t = a*_t(X_t), over T
//   mean_reward               the drawn rewards received, over T
//   bandit_updates            learn calls that change the policy (T, or 0
//                             for uniform)
//   cycles_per_update         the replay's cycles / T (timing; policies that
//                             learn)
//   cycles_per_round          the timed run's cycles / T: choice, reward,
//                             update and the regret bookkeeping (timing)
//   structural_patches        0, with "enabled" = "no": no policy here splits
//                             or merges experts (5.1.3 asks that this be said)
// and for each change j = 1..J at round t_j (5.2.3; split
// "policy=NAME,change=j", condition change and t_change), with W the spike
// window (at most half a segment) and W_reg the adaptation window:
//   regret_spike              regret in rounds [t_j, t_j + W)
//   regret_rate_before_change mean regret per round in [t_j - W, t_j)
//   adaptation_time           the least tau >= 0 such that the mean regret
//                             per round over [t_j + tau, t_j + tau + W_reg)
//                             is at most the threshold, windows inside the
//                             segment; where none is, the rounds left in the
//                             segment after the last window's start, with
//                             breakdown adapted = "no" (a censored value)
//   recovery_time             the same with the policy's own
//                             regret_rate_before_change as the threshold: the
//                             rounds it takes to be as good as before
//   structural_updates        0, "enabled" = "no"
//   learning_cycles_before_change, learning_cycles_after_change
//                             the replayed learn calls' cycles in rounds
//                             [t_j - W, t_j) and [t_j, t_j + W) (timing;
//                             policies that learn); each window is timed in
//                             10 blocks and counts as 10 times its median
//                             block, so one stall of the host does not make
//                             the figure
//   additional_learning_cycles_after_change   after minus before: the mid-
//                             and slow-path compute the change costs (the
//                             BEM's STATS_UPDATE and mid-path updates)
// Cycle units say how they were obtained (bem/platform/cycles.hpp).
//
// Parameters: declared with their defaults and ranges by
// tk::contextual_bandit_parameters, bandit_parameters and (nonstationary_bandit)
// change_parameters below (`bem-bench list --parameters`).
#include <bem/learn/bandit_policies.hpp>
#include <bem/harness/benchmark.hpp>
#include <bem/platform/cycles.hpp>
#include <bem/plugin/adapter.hpp>
#include <metrics/bandit_metrics.hpp>
#include <tasks/contextual_bandit.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

namespace tk = bem::tasks;
using bem::metrics::better;
using conditions = std::vector<bem::tasks::condition_field>;

const std::vector<std::string> all_policies = {"bem",           "uniform",        "ucb1_per_context",
                                               "discounted_ucb1", "epsilon_greedy", "linucb"};

/// 10, 20, 50, 100, ... below T, then T.
std::vector<std::int64_t> curve_points(std::int64_t T) {
  std::vector<std::int64_t> v;
  for (std::int64_t decade = 10; decade < T; decade *= 10)
    for (std::int64_t m : {1, 2, 5})
      if (m * decade < T) v.push_back(m * decade);
  v.push_back(T);
  return v;
}

std::string number_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

/// T, the policies and their settings; the nonstationary benchmark's
/// default policies add discounted_ucb1.
template <bool Nonstationary>
struct bandit_parameters {
  BOOST_HANA_DEFINE_STRUCT(bandit_parameters, (std::int64_t, rounds), (std::vector<std::string>, policies),
                           (double, c_explore), (double, epsilon), (double, learning_rate), (double, alpha),
                           (std::int64_t, mid_path_every), (double, discount));
  static void describe(bem::parameter_schema<bandit_parameters>& s) {
    const bem::bandit_policy_settings d;
    std::vector<std::string> played = all_policies;
    if (!Nonstationary) std::erase(played, "discounted_ucb1");
    s("rounds", 100000).in(1, 10000000).doc("T (the BEM's trace keeps about 150 bytes a round in memory)");
    s("policies", played).one_of(all_policies).doc("the policies that play, each at most once");
    s("c_explore", d.c_explore).doc("UCB1's c (bem, ucb1_per_context, discounted_ucb1); finite, >= 0");
    s("epsilon", d.epsilon).in(0, 1).doc("epsilon_greedy's exploration rate");
    s("learning_rate", d.learning_rate).doc("epsilon_greedy's logistic step; finite, > 0");
    s("alpha", d.alpha).doc("linucb's confidence width; finite, >= 0");
    s("mid_path_every", d.mid_path_every).in(1, std::int64_t{1} << 40).doc("bem: rounds between mid-path updates");
    s("discount", d.discount).doc("discounted_ucb1's gamma per visit of a context, in (0, 1]");
  }
};

/// What section 5.2 measures around each change (nonstationary_bandit only).
struct change_parameters {
  BOOST_HANA_DEFINE_STRUCT(change_parameters, (int, changes), (std::int64_t, spike_window),
                           (std::int64_t, adaptation_window), (double, adaptation_threshold));
  static void describe(bem::parameter_schema<change_parameters>& s) {
    s("changes", 4).in(1, 16).doc("J, the changes of the reward means");
    s("spike_window", 1000).in(1, 10000000).doc("W, rounds after a change (at most half a segment)");
    s("adaptation_window", 500).in(1, 10000000).doc("W_reg, the window of adaptation_time");
    s("adaptation_threshold", 0.05).doc("expected regret per round that counts as adapted; finite, >= 0");
  }
};

/// Both benchmarks: J = 0 (5.1) or J changes (5.2).
class bandit_benchmark {
 public:
  bandit_benchmark(bem::parameters& p, bool nonstationary) : spec_(tk::contextual_bandit_spec_from(p)) {
    const auto take = [&](const auto& v) {
      rounds_ = v.rounds, policies_ = v.policies;
      settings_ = {v.c_explore, v.epsilon, v.learning_rate, v.alpha, v.mid_path_every, v.discount};
    };
    if (nonstationary)
      take(bem::read_parameters<bandit_parameters<true>>(p));
    else
      take(bem::read_parameters<bandit_parameters<false>>(p));
    if (!(settings_.c_explore >= 0 && std::isfinite(settings_.c_explore)))
      throw bem::parameter_error("c_explore", "must be a finite number >= 0");
    if (!(settings_.learning_rate > 0 && std::isfinite(settings_.learning_rate)))
      throw bem::parameter_error("learning_rate", "must be a finite number > 0");
    if (!(settings_.alpha >= 0 && std::isfinite(settings_.alpha)))
      throw bem::parameter_error("alpha", "must be a finite number >= 0");
    if (!(settings_.discount > 0 && settings_.discount <= 1))
      throw bem::parameter_error("discount", "must lie in (0, 1]");
    if (policies_.empty()) throw bem::parameter_error("policies", "must name at least one policy");
    for (const auto& n : policies_)
      if (std::count(policies_.begin(), policies_.end(), n) > 1)
        throw bem::parameter_error("policies", "\"" + n + "\" is listed twice");
    if (nonstationary) {
      change_ = bem::read_parameters<change_parameters>(p);
      if (!(change_.adaptation_threshold >= 0 && std::isfinite(change_.adaptation_threshold)))
        throw bem::parameter_error("adaptation_threshold", "must be a finite number >= 0");
      if (rounds_ < 2 * (change_.changes + 1))
        throw bem::parameter_error("rounds", "must give every segment at least 2 rounds (2 * (changes + 1))");
    }
  }

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    tk::nonstationary_bandit env(spec_, change_.changes, rounds_, seed);
    const std::vector<tk::bandit_round> rounds = env.draw_rounds();
    for (const auto& n : policies_) {
      const std::uint64_t s = bem::derive_seed(seed, bem::fnv1a64("bandit policy"), bem::fnv1a64(n));
      if (n == "bem") play<bem::bem_bandit_policy>(env, rounds, s, sink);
      else if (n == "uniform") play<bem::uniform_policy>(env, rounds, s, sink);
      else if (n == "ucb1_per_context") play<bem::ucb1_per_context_policy>(env, rounds, s, sink);
      else if (n == "discounted_ucb1") play<bem::discounted_ucb1_per_context_policy>(env, rounds, s, sink);
      else if (n == "epsilon_greedy") play<bem::epsilon_greedy_logistic_policy>(env, rounds, s, sink);
      else play<bem::linucb_policy>(env, rounds, s, sink);
    }
  }

 private:
  /// The hyperparameters policy P reads, as condition fields.
  template <class P>
  conditions hyperparameters() const {
    using bem::tasks::string_field;
    if constexpr (std::is_same_v<P, bem::bem_bandit_policy>)
      return {string_field("c_explore", number_text(settings_.c_explore)),
              bem::tasks::number_field("mid_path_every", settings_.mid_path_every)};
    else if constexpr (std::is_same_v<P, bem::ucb1_per_context_policy>)
      return {string_field("c_explore", number_text(settings_.c_explore))};
    else if constexpr (std::is_same_v<P, bem::discounted_ucb1_per_context_policy>)
      return {string_field("c_explore", number_text(settings_.c_explore)),
              string_field("discount", number_text(settings_.discount))};
    else if constexpr (std::is_same_v<P, bem::epsilon_greedy_logistic_policy>)
      return {string_field("epsilon", number_text(settings_.epsilon)),
              string_field("learning_rate", number_text(settings_.learning_rate))};
    else if constexpr (std::is_same_v<P, bem::linucb_policy>)
      return {string_field("alpha", number_text(settings_.alpha))};
    else
      return {};
  }

  /// The spike window: at most half a segment, so the windows of two
  /// changes never overlap.
  std::int64_t spike_window() const { return std::min(change_.spike_window, rounds_ / (change_.changes + 1) / 2); }

  template <class P>
  void play(const tk::nonstationary_bandit& env, const std::vector<tk::bandit_round>& rounds, std::uint64_t seed,
            bem::benchmark_sink& sink) const {
    const bem::bandit_shape shape{spec_.d, spec_.actions};
    const auto T = static_cast<std::int64_t>(rounds.size());
    const std::vector<std::int64_t> points = curve_points(T);
    const std::vector<std::int64_t>& changes = env.change_points();
    const std::int64_t W = spike_window();
    std::vector<double> curve, per_round(changes.empty() ? 0 : rounds.size());
    std::vector<std::vector<double>> window_blocks;  // per window (before, after each change): its blocks' cycles
    constexpr std::int64_t blocks = 10;
    std::vector<std::uint8_t> actions(rounds.size());
    double regret = 0, reward = 0;
    std::int64_t optimal = 0;
    bem::cycle_counter counter, window_counter;
    double run_cycles, update_cycles = 0;
    {
      P policy(shape, settings_, seed);
      std::size_t next_point = 0, next_change = 0;
      int segment = 0;
      const tk::contextual_bandit* means = &env.segment(0);
      counter.start();
      for (std::int64_t t = 0; t < T; ++t) {
        if (next_change < changes.size() && t == changes[next_change]) {
          means = &env.segment(++segment);
          ++next_change;
        }
        const tk::bandit_round& r = rounds[static_cast<std::size_t>(t)];
        const int a = policy.choose(r.context);
        const double got = static_cast<double>((r.rewards >> a) & 1u);
        policy.learn(r.context, a, got);
        actions[static_cast<std::size_t>(t)] = static_cast<std::uint8_t>(a);
        const double gap = means->gap(r.context, a);
        regret += gap;
        if (!per_round.empty()) per_round[static_cast<std::size_t>(t)] = gap;
        reward += got;
        optimal += a == means->best_action(r.context);
        if (t + 1 == points[next_point]) {
          curve.push_back(regret);
          ++next_point;
        }
      }
      run_cycles = counter.stop().cycles;
    }
    if constexpr (P::learns) {
      // The learn calls alone. Around each change the W updates before it
      // and the W after it are timed too, each window in `blocks` blocks,
      // whose median stands for the window: a stall of this host (5-10 ms
      // now and then) would otherwise make one window's figure.
      const std::int64_t B = std::min<std::int64_t>(blocks, W);
      struct block {
        std::int64_t begin, end;
        std::size_t window;  // 2 j: before change j + 1; 2 j + 1: after it
      };
      std::vector<block> timed;
      for (std::size_t j = 0; j < changes.size(); ++j)
        for (std::size_t side = 0; side < 2; ++side) {
          const std::int64_t w0 = changes[j] - W + static_cast<std::int64_t>(side) * W;
          for (std::int64_t k = 0; k < B; ++k) timed.push_back({w0 + k * W / B, w0 + (k + 1) * W / B, 2 * j + side});
        }
      window_blocks.assign(2 * changes.size(), {});
      std::size_t next = 0, open = timed.size();
      P replay(shape, settings_, seed);
      counter.start();
      for (std::int64_t t = 0; t < T; ++t) {
        if (open < timed.size() && timed[open].end == t) {
          window_blocks[timed[open].window].push_back(window_counter.stop().cycles);
          open = timed.size();
        }
        if (next < timed.size() && timed[next].begin == t) {
          window_counter.start();
          open = next++;
        }
        const auto i = static_cast<std::size_t>(t);
        replay.learn(rounds[i].context, actions[i], static_cast<double>((rounds[i].rewards >> actions[i]) & 1u));
      }
      update_cycles = counter.stop().cycles;
    }

    const std::string split = std::string("policy=") + P::name;
    conditions condition = {bem::tasks::string_field("policy", P::name), bem::tasks::number_field("d", spec_.d),
                            bem::tasks::number_field("actions", spec_.actions), bem::tasks::number_field("T", T)};
    if (!changes.empty()) condition.push_back(bem::tasks::number_field("J", static_cast<long long>(changes.size())));
    for (auto& f : hyperparameters<P>()) condition.push_back(std::move(f));
    auto emit = [&](const std::string& s, const conditions& c, const std::string& metric, double value,
                    const std::string& unit, better dir, std::int64_t n, bool timing,
                    std::vector<std::pair<std::string, std::string>> breakdown = {}) {
      bem::benchmark_record rec;
      rec.split = s;
      rec.condition = c;
      rec.value = bem::metrics::scalar_metric(metric, value, unit, dir, n, "rounds");
      rec.value.breakdown = std::move(breakdown);
      rec.timing = timing;
      sink.emit(rec);
    };
    const double Td = static_cast<double>(T);
    emit(split, condition, "regret", regret, "expected reward", better::lower, T, false);
    emit(split, condition, "normalized_regret", regret / Td, "expected reward per round", better::lower, T, false);
    for (std::size_t i = 0; i < points.size(); ++i) {
      auto c = condition;
      c.push_back(bem::tasks::number_field("t", points[i]));
      emit(split + ",t=" + std::to_string(points[i]), c, "regret_at_t", curve[i], "expected reward", better::lower,
           points[i], false);
    }
    emit(split, condition, "optimal_action_rate", static_cast<double>(optimal) / Td, "fraction", better::higher, T,
         false);
    emit(split, condition, "mean_reward", reward / Td, "reward per round", better::higher, T, false);
    emit(split, condition, "bandit_updates", P::learns ? Td : 0.0, "updates", better::none, T, false);
    if constexpr (P::learns)
      emit(split, condition, "cycles_per_update", update_cycles / Td, counter.unit(), better::lower, T, true);
    emit(split, condition, "cycles_per_round", run_cycles / Td, counter.unit(), better::lower, T, true);
    const std::vector<std::pair<std::string, std::string>> none = {
        {"enabled", "no"}, {"note", "no policy of this benchmark splits or merges experts"}};
    emit(split, condition, "structural_patches", 0.0, "patches", better::none, T, false, none);

    // Section 5.2.3, per change (metrics/bandit_metrics.hpp).
    const bem::metrics::regret_prefix regrets(per_round);
    for (std::size_t j = 0; j < changes.size(); ++j) {
      const std::int64_t c0 = changes[j], end = env.segment_end(static_cast<int>(j) + 1);
      const bem::metrics::change_response response = bem::metrics::respond_to_change(
          regrets, c0, end, W, change_.adaptation_window, change_.adaptation_threshold);
      auto c = condition;
      c.push_back(bem::tasks::number_field("change", static_cast<long long>(j + 1)));
      c.push_back(bem::tasks::number_field("t_change", c0));
      const std::string s = split + ",change=" + std::to_string(j + 1);
      emit(s, c, "regret_spike", response.spike, "expected reward", better::lower, W, false);
      emit(s, c, "regret_rate_before_change", response.rate_before, "expected reward per round", better::lower, W,
           false);
      auto time = [&](const char* metric, const bem::metrics::threshold_time& x, double threshold) {
        emit(s, c, metric, static_cast<double>(x.rounds), "rounds", better::lower, end - c0, false,
             {{"adapted", x.reached ? "yes" : "no"},
              {"window", std::to_string(x.window)},
              {"threshold", number_text(threshold)}});
      };
      time("adaptation_time", response.adaptation, change_.adaptation_threshold);
      time("recovery_time", response.recovery, response.rate_before);
      emit(s, c, "structural_updates", 0.0, "updates", better::none, end - c0, false, none);
      if constexpr (P::learns) {
        auto window = [&](std::size_t w) {  // the median block, times the blocks
          std::vector<double> v = window_blocks.at(w);
          std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
          return v[v.size() / 2] * static_cast<double>(v.size());
        };
        const double before = window(2 * j), after = window(2 * j + 1);
        const std::vector<std::pair<std::string, std::string>> blocked = {
            {"blocks", std::to_string(window_blocks.at(2 * j).size())}};
        emit(s, c, "learning_cycles_before_change", before, counter.unit(), better::lower, W, true, blocked);
        emit(s, c, "learning_cycles_after_change", after, counter.unit(), better::lower, W, true, blocked);
        emit(s, c, "additional_learning_cycles_after_change", after - before, counter.unit(), better::lower, W, true,
             blocked);
      }
    }
  }

  tk::contextual_bandit_spec spec_;
  std::int64_t rounds_;
  std::vector<std::string> policies_;
  bem::bandit_policy_settings settings_;
  change_parameters change_{};  // all zero for contextual_bandit
};

struct contextual_bandit_benchmark : bandit_benchmark {
  using parameter_structs = bem::parameter_structs<tk::contextual_bandit_parameters, bandit_parameters<false>>;
  static constexpr const char* name = "contextual_bandit";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 5.1: regret of the BEM (bem::machine, UCB1 per context) and four baselines on a stochastic contextual "
      "bandit with logistic mean rewards";
  explicit contextual_bandit_benchmark(bem::parameters& p) : bandit_benchmark(p, false) {}
};

struct nonstationary_bandit_benchmark : bandit_benchmark {
  using parameter_structs =
      bem::parameter_structs<tk::contextual_bandit_parameters, bandit_parameters<true>, change_parameters>;
  static constexpr const char* name = "nonstationary_bandit";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 5.2: regret spike and adaptation time after each change of a piecewise-stationary contextual bandit, "
      "for the BEM and five baselines";
  explicit nonstationary_bandit_benchmark(bem::parameters& p) : bandit_benchmark(p, true) {}
};

}  // namespace

BEM_PLUGIN("bandit", "1", BEM_TASKS(), BEM_MODELS(),
           BEM_BENCHMARKS(contextual_bandit_benchmark, nonstationary_bandit_benchmark))
