// BEM suite section 5.1, the stochastic contextual bandit, as the
// `contextual_bandit` benchmark: each policy of bem/bandit_policies.hpp (the
// BEM on bem::machine and four baselines) plays T rounds of the environment
// of tasks/contextual_bandit.hpp, drawn once per seed, so every policy meets
// the same contexts and rewards.
//
// Per policy, the T rounds run once, timed as a whole: choose(X_t), the
// reward R_t(a_t), learn(X_t, a_t, R_t), the regret gap added. Then the same
// T learn calls are replayed on a fresh policy (law 3 of bandit_policy: the
// updates do not depend on the choices in between), timed alone. Records,
// split "policy=NAME", condition {policy, d, actions, T, the policy's
// hyperparameters}:
//   regret                    R_T = sum_t mu_a*(X_t) - mu_a_t(X_t) (5.1.2),
//                             in expected reward, n = T rounds
//   normalized_regret         R_T / T
//   regret_at_t               R_t at t = 10, 20, 50, 100, 200, 500, ... and T
//                             (split "policy=NAME,t=1000", condition t): the
//                             regret curve, log-spaced for a log-log plot
//   optimal_action_rate       rounds with a_t = a*(X_t), over T
//   mean_reward               the drawn rewards received, over T
//   bandit_updates            learn calls that change the policy (T, or 0
//                             for uniform)
//   cycles_per_update         the replay's cycles / T (timing; policies that
//                             learn)
//   cycles_per_round          the timed run's cycles / T: choice, reward,
//                             update and the regret bookkeeping (timing)
//   structural_patches        0, with "enabled" = "no": no policy here splits
//                             or merges experts (5.1.3 asks that this be said)
// Cycle units say how they were obtained (bem/cycles.hpp).
//
// Parameters: d (8), actions (4), weight_scale (1), rounds T (100000, at most
// 10^7; the spec's examples are 10^5 and 10^6; the BEM's trace log keeps about
// 150 bytes a round in memory), policies (list, default all five:
// bem, uniform, ucb1_per_context, epsilon_greedy, linucb), c_explore
// (sqrt 2), epsilon (0.05), learning_rate (0.1), alpha (1), mid_path_every
// (1000).
#include <bem/bandit_policies.hpp>
#include <bem/benchmark.hpp>
#include <bem/cycles.hpp>
#include <bem/plugin.hpp>
#include <tasks/contextual_bandit.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace {

namespace tk = bem::tasks;

const std::vector<std::string> policy_names = {"bem", "uniform", "ucb1_per_context", "epsilon_greedy", "linucb"};

/// 10, 20, 50, 100, ... below T, then T.
std::vector<std::int64_t> curve_points(std::int64_t T) {
  std::vector<std::int64_t> v;
  for (std::int64_t decade = 10; decade < T; decade *= 10)
    for (std::int64_t m : {1, 2, 5})
      if (m * decade < T) v.push_back(m * decade);
  v.push_back(T);
  return v;
}

struct contextual_bandit_benchmark {
  static constexpr const char* name = "contextual_bandit";
  static constexpr const char* version = "1";
  static constexpr const char* description =
      "BEM 5.1: regret of the BEM (bem::machine, UCB1 per context) and four baselines on a stochastic contextual "
      "bandit with logistic mean rewards";

  explicit contextual_bandit_benchmark(bem::parameters& p)
      : spec_(tk::contextual_bandit_spec_from(p)),
        rounds_(p.get_int_in("rounds", 100000, 1, 10000000)),
        policies_(p.get_string_list("policies", policy_names)) {
    settings_.c_explore = p.get_double("c_explore", settings_.c_explore);
    settings_.epsilon = p.get_double_in("epsilon", settings_.epsilon, 0.0, 1.0);
    settings_.learning_rate = p.get_double("learning_rate", settings_.learning_rate);
    settings_.alpha = p.get_double("alpha", settings_.alpha);
    settings_.mid_path_every = p.get_int_in("mid_path_every", settings_.mid_path_every, 1, std::int64_t{1} << 40);
    if (!(settings_.c_explore >= 0 && std::isfinite(settings_.c_explore)))
      throw bem::parameter_error("c_explore", "must be a finite number >= 0");
    if (!(settings_.learning_rate > 0 && std::isfinite(settings_.learning_rate)))
      throw bem::parameter_error("learning_rate", "must be a finite number > 0");
    if (!(settings_.alpha >= 0 && std::isfinite(settings_.alpha)))
      throw bem::parameter_error("alpha", "must be a finite number >= 0");
    if (policies_.empty()) throw bem::parameter_error("policies", "must name at least one policy");
    for (const auto& n : policies_) {
      if (std::find(policy_names.begin(), policy_names.end(), n) == policy_names.end())
        throw bem::parameter_error("policies", "each must be one of bem, uniform, ucb1_per_context, epsilon_greedy, "
                                               "linucb; got \"" + n + "\"");
      if (std::count(policies_.begin(), policies_.end(), n) > 1)
        throw bem::parameter_error("policies", "\"" + n + "\" is listed twice");
    }
  }

  void run(std::uint64_t seed, bem::benchmark_sink& sink) {
    tk::contextual_bandit env(spec_, seed);
    const std::vector<tk::bandit_round> rounds = env.next_rounds(static_cast<std::size_t>(rounds_));
    bem::cycle_counter counter;
    for (const auto& n : policies_) {
      const std::uint64_t policy_seed = bem::derive_seed(seed, bem::fnv1a64("bandit policy"), bem::fnv1a64(n));
      if (n == "bem") play<bem::bem_bandit_policy>(env, rounds, policy_seed, counter, sink);
      else if (n == "uniform") play<bem::uniform_policy>(env, rounds, policy_seed, counter, sink);
      else if (n == "ucb1_per_context") play<bem::ucb1_per_context_policy>(env, rounds, policy_seed, counter, sink);
      else if (n == "epsilon_greedy") play<bem::epsilon_greedy_logistic_policy>(env, rounds, policy_seed, counter, sink);
      else play<bem::linucb_policy>(env, rounds, policy_seed, counter, sink);
    }
  }

 private:
  /// The hyperparameters policy P reads, as condition fields.
  template <class P>
  std::vector<bem::tasks::condition_field> hyperparameters() const {
    using bem::tasks::string_field;
    auto num = [](double v) {
      char b[32];
      std::snprintf(b, sizeof b, "%.17g", v);
      return std::string(b);
    };
    if constexpr (std::is_same_v<P, bem::bem_bandit_policy>)
      return {string_field("c_explore", num(settings_.c_explore)),
              bem::tasks::number_field("mid_path_every", settings_.mid_path_every)};
    else if constexpr (std::is_same_v<P, bem::ucb1_per_context_policy>)
      return {string_field("c_explore", num(settings_.c_explore))};
    else if constexpr (std::is_same_v<P, bem::epsilon_greedy_logistic_policy>)
      return {string_field("epsilon", num(settings_.epsilon)),
              string_field("learning_rate", num(settings_.learning_rate))};
    else if constexpr (std::is_same_v<P, bem::linucb_policy>)
      return {string_field("alpha", num(settings_.alpha))};
    else
      return {};
  }

  template <class P>
  void play(const tk::contextual_bandit& env, const std::vector<tk::bandit_round>& rounds, std::uint64_t seed,
            bem::cycle_counter& counter, bem::benchmark_sink& sink) const {
    const bem::bandit_shape shape{spec_.d, spec_.actions};
    const auto T = static_cast<std::int64_t>(rounds.size());
    const std::vector<std::int64_t> points = curve_points(T);
    std::vector<double> curve;
    curve.reserve(points.size());
    std::vector<std::uint8_t> actions(rounds.size());
    double regret = 0, reward = 0;
    std::int64_t optimal = 0;
    double run_cycles, update_cycles = 0;
    {
      P policy(shape, settings_, seed);
      std::size_t next_point = 0;
      counter.start();
      for (std::size_t t = 0; t < rounds.size(); ++t) {
        const tk::bandit_round& r = rounds[t];
        const int a = policy.choose(r.context);
        const double got = static_cast<double>((r.rewards >> a) & 1u);
        policy.learn(r.context, a, got);
        actions[t] = static_cast<std::uint8_t>(a);
        regret += env.gap(r.context, a);
        reward += got;
        optimal += a == env.best_action(r.context);
        if (static_cast<std::int64_t>(t + 1) == points[next_point]) {
          curve.push_back(regret);
          ++next_point;
        }
      }
      run_cycles = counter.stop().cycles;
    }
    if constexpr (P::learns) {
      P replay(shape, settings_, seed);
      counter.start();
      for (std::size_t t = 0; t < rounds.size(); ++t)
        replay.learn(rounds[t].context, actions[t], static_cast<double>((rounds[t].rewards >> actions[t]) & 1u));
      update_cycles = counter.stop().cycles;
    }

    const std::string split = std::string("policy=") + P::name;
    std::vector<bem::tasks::condition_field> condition = {
        bem::tasks::string_field("policy", P::name), bem::tasks::number_field("d", spec_.d),
        bem::tasks::number_field("actions", spec_.actions), bem::tasks::number_field("T", T)};
    for (auto& f : hyperparameters<P>()) condition.push_back(std::move(f));
    using bem::metrics::better;
    auto emit = [&](const std::string& s, const std::vector<bem::tasks::condition_field>& c, const std::string& metric,
                    double value, const std::string& unit, better dir, std::int64_t n, bool timing,
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
    emit(split, condition, "structural_patches", 0.0, "patches", better::none, T, false,
         {{"enabled", "no"}, {"note", "no policy of this benchmark splits or merges experts"}});
  }

  tk::contextual_bandit_spec spec_;
  std::int64_t rounds_;
  std::vector<std::string> policies_;
  bem::bandit_policy_settings settings_;
};

}  // namespace

BEM_PLUGIN("bandit", "1", BEM_TASKS(), BEM_MODELS(), BEM_BENCHMARKS(contextual_bandit_benchmark))
