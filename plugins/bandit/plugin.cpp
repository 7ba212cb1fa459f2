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
//   structural_patches        the BEM: its accepted patches, breakdown enabled =
//                             yes and the count per class (expert_split,
//                             expert_merge, macro_refine); other policies 0,
//                             enabled = no (5.1.3 asks that this be said)
//   patches_rejected, change_alarms, verification_cycles   the BEM's
//                             rejected patches, detector alarms and the
//                             cycles of its VCs' SAT calls (timing)
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
//   structural_updates        the BEM: accepted patches in [t_j, t_j + W), by
//                             class (item 3); structural_updates_before_change
//                             the same in [t_j - W, t_j); others 0, enabled = no
//   verification_cycles_after_change, _before_change   the BEM's VC cycles
//                             in those windows (item 4's slow-path part)
//   detection_delay           the BEM: rounds from t_j to the first alarm
//                             after it, or the segment's length with
//                             detected = no
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

const std::vector<std::string> all_policies = {"bem",    "uniform",   "ucb1_per_context", "discounted_ucb1",
                                               "epsilon_greedy", "linucb", "sw_linucb", "d_linucb"};
/// The policies made for changing worlds, played by default only in 5.2.
const std::vector<std::string> nonstationary_policies = {"discounted_ucb1", "sw_linucb", "d_linucb"};

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
                           (std::int64_t, mid_path_every), (double, discount), (int, ensemble),
                           (int, max_ensemble), (double, perturbation), (double, prior_precision),
                           (std::int64_t, refit_every), (int, weight_bits), (double, change_drift),
                           (double, change_threshold), (std::int64_t, change_warmup), (std::int64_t, merge_after),
                           (std::int64_t, window), (double, forgetting));
  static void describe(bem::parameter_schema<bandit_parameters>& s) {
    const bem::bandit_policy_settings d;
    std::vector<std::string> played = all_policies;
    if (!Nonstationary)
      for (const auto& n : nonstationary_policies) std::erase(played, n);
    s("rounds", 100000).in(1, 10000000).doc("T (the BEM's trace keeps about 150 bytes a round in memory)");
    s("policies", played).one_of(all_policies).doc("the policies that play, each at most once");
    s("c_explore", d.c_explore).doc("UCB1's c (bem, ucb1_per_context, discounted_ucb1); finite, >= 0");
    s("epsilon", d.epsilon).in(0, 1).doc("epsilon_greedy's exploration rate");
    s("learning_rate", d.learning_rate).doc("epsilon_greedy's logistic step; finite, > 0");
    s("alpha", d.alpha).doc("linucb's confidence width; finite, >= 0");
    s("mid_path_every", d.mid_path_every).in(1, std::int64_t{1} << 40).doc("bem: rounds between mid-path updates");
    s("discount", d.discount).doc("discounted_ucb1's gamma per visit of a context, in (0, 1]");
    s("ensemble", d.ensemble).in(1, 64).doc("bem: ensemble members (threshold-circuit experts) while stable");
    s("max_ensemble", d.max_ensemble).in(1, 64).doc("bem: members after a change's splits, >= ensemble");
    s("perturbation", d.perturbation).doc("bem: std of each member's reward perturbation; finite, >= 0");
    s("prior_precision", d.prior_precision).doc("bem, sw_linucb, d_linucb: lambda of the ridge prior; > 0");
    s("refit_every", d.refit_every).in(1, std::int64_t{1} << 40).doc("bem: rounds between refits (after 16, 32, ...)");
    s("weight_bits", d.weight_bits).in(2, 16).doc("bem: bits of a circuit's quantised weight, sign included");
    s("change_drift", d.change_drift).doc("bem: the change detector's CUSUM allowance per round; finite, >= 0");
    s("change_threshold", d.change_threshold).doc("bem: the CUSUM's alarm level; > 0 (inf: no detection)");
    s("change_warmup", d.change_warmup).in(0, std::int64_t{1} << 40).doc("bem: rounds after a start before detection");
    s("merge_after", d.merge_after).in(1, std::int64_t{1} << 40).doc("bem: stable rounds before extra members merge");
    s("window", d.window).in(1, 10000000).doc("sw_linucb: the sliding window, rounds");
    s("forgetting", d.forgetting).doc("d_linucb: gamma per round, in (0, 1]");
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

/// The BEM's accepted structural patches and change alarms (rounds are
/// 1-based learn calls, so round r is 0-based round r - 1).
struct structure_log {
  bool enabled = false;
  std::vector<bem::bem_bandit_policy::structural_event> events;
  std::vector<std::uint64_t> alarms;
  std::uint64_t rejected = 0;

  bool in(const bem::bem_bandit_policy::structural_event& e, std::int64_t from, std::int64_t to) const {
    const auto t = static_cast<std::int64_t>(e.round) - 1;
    return t >= from && t < to;
  }
  double count(std::int64_t from, std::int64_t to) const {
    return static_cast<double>(std::count_if(events.begin(), events.end(), [&](const auto& e) { return in(e, from, to); }));
  }
  double cycles(std::int64_t from, std::int64_t to) const {
    double c = 0;
    for (const auto& e : events)
      if (in(e, from, to)) c += static_cast<double>(e.verification_cycles);
    return c;
  }
  /// enabled = yes and the count of every patch class in [from, to).
  std::vector<std::pair<std::string, std::string>> by_class(std::int64_t from, std::int64_t to) const {
    std::vector<std::pair<std::string, std::string>> b = {{"enabled", "yes"}};
    for (auto k : {bem::patch_class::expert_split, bem::patch_class::expert_merge, bem::patch_class::macro_refine}) {
      const auto n = std::count_if(events.begin(), events.end(),
                                   [&](const auto& e) { return e.kind == k && in(e, from, to); });
      b.emplace_back(bem::to_string(k), std::to_string(n));
    }
    return b;
  }
};

structure_log structure_of(const bem::bem_bandit_policy& p) {
  structure_log s;
  s.enabled = true;
  s.events = p.structural_events();
  s.alarms = p.alarms();
  s.rejected = p.slow().counters().rejected;
  return s;
}

/// Both benchmarks: J = 0 (5.1) or J changes (5.2).
class bandit_benchmark {
 public:
  bandit_benchmark(bem::parameters& p, bool nonstationary) : spec_(tk::contextual_bandit_spec_from(p)) {
    const auto take = [&](const auto& v) {
      rounds_ = v.rounds, policies_ = v.policies;
      settings_ = {v.c_explore,       v.epsilon,      v.learning_rate,   v.alpha,        v.mid_path_every,
                   v.discount,        v.ensemble,     v.max_ensemble,    v.perturbation, v.prior_precision,
                   v.refit_every,     v.weight_bits,  v.change_drift,    v.change_threshold,
                   v.change_warmup,   v.merge_after,  v.window,          v.forgetting};
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
    const auto finite_at_least = [](double v, double low, bool strict) {
      return std::isfinite(v) && (strict ? v > low : v >= low);
    };
    if (!finite_at_least(settings_.perturbation, 0, false))
      throw bem::parameter_error("perturbation", "must be a finite number >= 0");
    if (!finite_at_least(settings_.prior_precision, 0, true))
      throw bem::parameter_error("prior_precision", "must be a finite number > 0");
    if (!finite_at_least(settings_.change_drift, 0, false))
      throw bem::parameter_error("change_drift", "must be a finite number >= 0");
    if (!(settings_.change_threshold > 0)) throw bem::parameter_error("change_threshold", "must be > 0");
    if (settings_.max_ensemble < settings_.ensemble)
      throw bem::parameter_error("max_ensemble", "must be at least ensemble (" + std::to_string(settings_.ensemble) + ")");
    if (!(settings_.forgetting > 0 && settings_.forgetting <= 1))
      throw bem::parameter_error("forgetting", "must lie in (0, 1]");
    if (policies_.empty()) throw bem::parameter_error("policies", "must name at least one policy");
    for (const auto& n : policies_) {
      if (std::count(policies_.begin(), policies_.end(), n) > 1)
        throw bem::parameter_error("policies", "\"" + n + "\" is listed twice");
      // Each policy checks its own settings; a bad one is a usage error here, not a failed run.
      try {
        with_policy(n, [&]<class P>() { P(bem::bandit_shape{spec_.d, spec_.actions}, settings_, 0); });
      } catch (const std::invalid_argument& e) {
        throw bem::parameter_error("policies", std::string(e.what()));
      }
    }
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
      with_policy(n, [&]<class P>() { play<P>(env, rounds, s, sink); });
    }
  }

 private:
  /// Calls f.template operator()<P>() for the policy named n.
  template <class F>
  static void with_policy(const std::string& n, F&& f) {
    if (n == "bem") f.template operator()<bem::bem_bandit_policy>();
    else if (n == "uniform") f.template operator()<bem::uniform_policy>();
    else if (n == "ucb1_per_context") f.template operator()<bem::ucb1_per_context_policy>();
    else if (n == "discounted_ucb1") f.template operator()<bem::discounted_ucb1_per_context_policy>();
    else if (n == "epsilon_greedy") f.template operator()<bem::epsilon_greedy_logistic_policy>();
    else if (n == "linucb") f.template operator()<bem::linucb_policy>();
    else if (n == "sw_linucb") f.template operator()<bem::sliding_window_linucb_policy>();
    else f.template operator()<bem::discounted_linucb_policy>();
  }

  /// The hyperparameters policy P reads, as condition fields.
  template <class P>
  conditions hyperparameters() const {
    using bem::tasks::string_field;
    if constexpr (std::is_same_v<P, bem::bem_bandit_policy>)
      return {string_field("c_explore", number_text(settings_.c_explore)),
              bem::tasks::number_field("mid_path_every", settings_.mid_path_every),
              bem::tasks::number_field("ensemble", settings_.ensemble),
              bem::tasks::number_field("max_ensemble", settings_.max_ensemble),
              string_field("perturbation", number_text(settings_.perturbation)),
              string_field("prior_precision", number_text(settings_.prior_precision)),
              bem::tasks::number_field("refit_every", settings_.refit_every),
              bem::tasks::number_field("weight_bits", settings_.weight_bits),
              string_field("change_drift", number_text(settings_.change_drift)),
              string_field("change_threshold", number_text(settings_.change_threshold)),
              bem::tasks::number_field("change_warmup", settings_.change_warmup),
              bem::tasks::number_field("merge_after", settings_.merge_after)};
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
    else if constexpr (std::is_same_v<P, bem::sliding_window_linucb_policy>)
      return {string_field("alpha", number_text(settings_.alpha)),
              string_field("prior_precision", number_text(settings_.prior_precision)),
              bem::tasks::number_field("window", settings_.window)};
    else if constexpr (std::is_same_v<P, bem::discounted_linucb_policy>)
      return {string_field("alpha", number_text(settings_.alpha)),
              string_field("prior_precision", number_text(settings_.prior_precision)),
              string_field("forgetting", number_text(settings_.forgetting))};
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
    structure_log structure;
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
      if constexpr (std::is_same_v<P, bem::bem_bandit_policy>) structure = structure_of(policy);
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
      sink.emit(bem::benchmark_record::scalar(s, c, metric, value, unit, dir, n, "rounds", timing, std::move(breakdown)));
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
        {"enabled", "no"}, {"note", "this policy has no experts to split or merge"}};
    if (structure.enabled) {
      emit(split, condition, "structural_patches", static_cast<double>(structure.events.size()), "patches",
           better::none, T, false, structure.by_class(0, T));
      emit(split, condition, "patches_rejected", static_cast<double>(structure.rejected), "patches", better::lower, T,
           false);
      emit(split, condition, "change_alarms", static_cast<double>(structure.alarms.size()), "alarms", better::none, T,
           false);
      emit(split, condition, "verification_cycles", structure.cycles(0, T), counter.unit(), better::lower, T, true);
    } else {
      emit(split, condition, "structural_patches", 0.0, "patches", better::none, T, false, none);
    }

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
      if (structure.enabled) {
        // 5.2.3 items 3 and 4: the patches of the W rounds after the change, beside the W before it.
        emit(s, c, "structural_updates", structure.count(c0, c0 + W), "updates", better::none, W, false,
             structure.by_class(c0, c0 + W));
        emit(s, c, "structural_updates_before_change", structure.count(c0 - W, c0), "updates", better::none, W, false,
             structure.by_class(c0 - W, c0));
        emit(s, c, "verification_cycles_after_change", structure.cycles(c0, c0 + W), counter.unit(), better::lower, W,
             true);
        emit(s, c, "verification_cycles_before_change", structure.cycles(c0 - W, c0), counter.unit(), better::lower,
             W, true);
        const auto alarm = std::find_if(structure.alarms.begin(), structure.alarms.end(),
                                        [&](std::uint64_t r) { return static_cast<std::int64_t>(r) > c0; });
        const bool detected = alarm != structure.alarms.end() && static_cast<std::int64_t>(*alarm) <= end;
        emit(s, c, "detection_delay", detected ? static_cast<double>(static_cast<std::int64_t>(*alarm) - c0)
                                               : static_cast<double>(end - c0),
             "rounds", better::lower, end - c0, false, {{"detected", detected ? "yes" : "no"}});
      } else {
        emit(s, c, "structural_updates", 0.0, "updates", better::none, end - c0, false, none);
      }
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
  static constexpr const char* version = "2";
  static constexpr const char* description =
      "BEM 5.1: regret of the BEM (bem::machine: an ensemble of threshold-circuit experts refitted by verified "
      "patches) and the baselines on a stochastic contextual bandit with logistic mean rewards";
  explicit contextual_bandit_benchmark(bem::parameters& p) : bandit_benchmark(p, false) {}
};

struct nonstationary_bandit_benchmark : bandit_benchmark {
  using parameter_structs =
      bem::parameter_structs<tk::contextual_bandit_parameters, bandit_parameters<true>, change_parameters>;
  static constexpr const char* name = "nonstationary_bandit";
  static constexpr const char* version = "2";
  static constexpr const char* description =
      "BEM 5.2: regret spike, adaptation time and structural updates after each change of a piecewise-stationary "
      "contextual bandit, for the BEM (change detector, expert split and merge) and the baselines";
  explicit nonstationary_bandit_benchmark(bem::parameters& p) : bandit_benchmark(p, true) {}
};

}  // namespace

BEM_PLUGIN("bandit", "1", BEM_TASKS(), BEM_MODELS(),
           BEM_BENCHMARKS(contextual_bandit_benchmark, nonstationary_bandit_benchmark))
