// The contextual bandit of BEM suite 5.1 (tasks/contextual_bandit.hpp) and
// its policies (bem/learn/bandit_policies.hpp, bem/learn/bem_bandit.hpp): the
// environment's distribution as documented, pinned for seed 1; each policy's
// rule on hand-made cases; the BEM's circuits, verified patches, change
// detection, splits and merges; the replay law the benchmark's update timing
// rests on; and that the learning policies learn.
#include <bem/learn/bandit_policies.hpp>
#include <metrics/bandit_metrics.hpp>
#include <tasks/contextual_bandit.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using bem::tasks::bandit_round;
using bem::tasks::contextual_bandit;
using bem::tasks::contextual_bandit_spec;

static_assert(bem::bandit_policy<bem::bem_bandit_policy>);
static_assert(bem::bandit_policy<bem::uniform_policy>);
static_assert(bem::bandit_policy<bem::ucb1_per_context_policy>);
static_assert(bem::bandit_policy<bem::discounted_ucb1_per_context_policy>);
static_assert(bem::bandit_policy<bem::epsilon_greedy_logistic_policy>);
static_assert(bem::bandit_policy<bem::linucb_policy>);
static_assert(bem::bandit_policy<bem::sliding_window_linucb_policy>);
static_assert(bem::bandit_policy<bem::discounted_linucb_policy>);

/// Plays T rounds; returns the regret (and the actions, when asked).
template <class P>
double play(P& policy, contextual_bandit& env, std::size_t T, std::vector<int>* actions = nullptr) {
  double regret = 0;
  for (std::size_t t = 0; t < T; ++t) {
    const bandit_round r = env.next_round();
    const int a = policy.choose(r.context);
    REQUIRE(a >= 0);
    REQUIRE(a < env.actions());
    policy.learn(r.context, a, static_cast<double>((r.rewards >> a) & 1u));
    regret += env.gap(r.context, a);
    if (actions) actions->push_back(a);
  }
  return regret;
}

double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

}  // namespace

TEST_CASE("the environment of seed 1 is the documented draw, the same on every machine") {
  contextual_bandit e({8, 4, 1.0}, 1);
  // Weights: uniform01 of the "bandit weights" stream, 2u - 1, in (a, j) order.
  CHECK(e.weight(0, 0) == 0.024925819507718217);
  CHECK(e.weight(0, 1) == -0.27761764045593829);
  CHECK(e.weight(1, 2) == 0.41787119252345373);
  bem::xoshiro256ss w(bem::derive_seed(1, bem::fnv1a64("bandit weights")));
  for (int a = 0; a < 4; ++a)
    for (int j = 0; j < 8; ++j) CHECK(e.weight(a, j) == 2 * w.uniform01() - 1);
  // Rounds: the context, then each action's reward, from the "bandit rounds" stream.
  const std::uint32_t contexts[] = {103, 179, 211, 63}, rewards[] = {9, 5, 3, 13};
  for (int i = 0; i < 4; ++i) {
    const bandit_round r = e.next_round();
    CHECK(r.context == contexts[i]);
    CHECK(r.rewards == rewards[i]);
  }
  contextual_bandit again({8, 4, 1.0}, 1), other({8, 4, 1.0}, 2);
  const auto a = again.next_rounds(100), b = other.next_rounds(100);
  CHECK(a[3].context == 63);
  int same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same += a[i].context == b[i].context;
  CHECK(same < 10);  // another seed, another stream (1/256 agree by chance)
  CHECK(other.weight(0, 0) != e.weight(0, 0));
}

TEST_CASE("mean rewards are the logistic of w_a . x, the oracle their argmax, the gap their difference") {
  contextual_bandit e({5, 3, 2.0}, 7);
  CHECK(e.contexts() == 32);
  for (std::uint32_t x = 0; x < e.contexts(); ++x) {
    int best = 0;
    for (int a = 0; a < 3; ++a) {
      double z = 0;
      for (int j = 0; j < 5; ++j) z += ((x >> j) & 1u) ? e.weight(a, j) : 0.0;
      CHECK(e.mean_reward(x, a) == doctest::Approx(sigmoid(z)).epsilon(1e-15));
      CHECK(std::abs(e.weight(a, x % 5)) < 2.0);
      if (e.mean_reward(x, a) > e.mean_reward(x, best)) best = a;
    }
    CHECK(e.best_action(x) == best);
    for (int a = 0; a < 3; ++a) {
      CHECK(e.gap(x, a) >= 0);
      CHECK(e.gap(x, a) == e.mean_reward(x, best) - e.mean_reward(x, a));
    }
  }
  // x = 0: every mean is sigma(0) = 1/2, a tie, and the oracle is action 0.
  CHECK(e.mean_reward(0, 2) == 0.5);
  CHECK(e.best_action(0) == 0);
}

TEST_CASE("contexts are uniform and each reward is Bernoulli(mu_a(x))") {
  contextual_bandit e({3, 2, 1.0}, 11);
  const int n = 80000;
  std::vector<int> seen(8, 0);
  std::vector<double> wins(16, 0);
  for (int t = 0; t < n; ++t) {
    const bandit_round r = e.next_round();
    ++seen[r.context];
    for (int a = 0; a < 2; ++a) wins[r.context * 2 + static_cast<std::uint32_t>(a)] += (r.rewards >> a) & 1u;
    CHECK((r.rewards >> 2) == 0);  // no bit beyond the K actions
  }
  for (std::uint32_t x = 0; x < 8; ++x) {
    // 10000 expected per context, sd about 94: within 5 sd.
    CHECK(std::abs(seen[x] - n / 8) < 470);
    for (int a = 0; a < 2; ++a) {
      const double mu = e.mean_reward(x, a), rate = wins[x * 2 + static_cast<std::uint32_t>(a)] / seen[x];
      CHECK(std::abs(rate - mu) < 5 * std::sqrt(mu * (1 - mu) / seen[x]));
    }
  }
}

TEST_CASE("the non-stationary bandit: segments of their own weights, one rounds stream, segment 0 the stationary one") {
  const contextual_bandit_spec spec{4, 3, 1.0};
  // J = 0 is the stationary environment, round for round.
  bem::tasks::nonstationary_bandit flat(spec, 0, 500, 5);
  contextual_bandit stationary(spec, 5);
  const auto a = flat.draw_rounds(), b = stationary.next_rounds(500);
  for (std::size_t t = 0; t < a.size(); ++t) {
    CHECK(a[t].context == b[t].context);
    CHECK(a[t].rewards == b[t].rewards);
  }
  CHECK(flat.changes() == 0);
  CHECK(flat.segment_end(0) == 500);
  // J = 3 over T = 1003: segments of 250 rounds, the last 253.
  bem::tasks::nonstationary_bandit env(spec, 3, 1003, 5);
  CHECK(env.change_points() == std::vector<std::int64_t>{250, 500, 750});
  CHECK(env.segment_of(0) == 0);
  CHECK(env.segment_of(249) == 0);
  CHECK(env.segment_of(250) == 1);
  CHECK(env.segment_of(1002) == 3);
  CHECK(env.segment_end(3) == 1003);
  for (int a2 = 0; a2 < 3; ++a2)
    for (int j = 0; j < 4; ++j) CHECK(env.segment(0).weight(a2, j) == stationary.weight(a2, j));
  CHECK(env.segment(1).weight(0, 0) != env.segment(0).weight(0, 0));
  bem::xoshiro256ss w2(bem::derive_seed(5, bem::fnv1a64("bandit weights"), 2));
  CHECK(env.segment(2).weight(0, 0) == 2 * w2.uniform01() - 1);
  // The contexts are the stationary stream's until the rewards differ:
  // round t's rewards follow its segment's means.
  const auto r = env.draw_rounds();
  CHECK(r[0].context == b[0].context);
  CHECK_THROWS_AS(bem::tasks::nonstationary_bandit(spec, 3, 3, 5), std::invalid_argument);
  CHECK_THROWS_AS(bem::tasks::nonstationary_bandit(spec, -1, 30, 5), std::invalid_argument);
  // Statistically: in a long run each segment's reward rates match its means.
  bem::tasks::nonstationary_bandit big({1, 2, 3.0}, 1, 200000, 8);
  const auto rounds = big.draw_rounds();
  for (int seg = 0; seg < 2; ++seg) {
    double n = 0, wins = 0;
    for (std::int64_t t = seg * 100000; t < (seg + 1) * 100000; ++t)
      if (rounds[static_cast<std::size_t>(t)].context == 1) {
        ++n;
        wins += rounds[static_cast<std::size_t>(t)].rewards & 1u;
      }
    const double mu = big.segment(seg).mean_reward(1, 0);
    CHECK(std::abs(wins / n - mu) < 5 * std::sqrt(mu * (1 - mu) / n));
  }
}

TEST_CASE("section 5.2.3 after a change: the spike, the rate before, adaptation and recovery times") {
  // 30 rounds, a change at 10: regret 0.1 a round before it, 1 for 4
  // rounds after it, then 0.5, 0.5, then 0.
  std::vector<double> r(30, 0.0);
  for (int t = 0; t < 10; ++t) r[static_cast<std::size_t>(t)] = 0.1;
  for (int t = 10; t < 14; ++t) r[static_cast<std::size_t>(t)] = 1.0;
  r[14] = r[15] = 0.5;
  const bem::metrics::regret_prefix p(r);
  CHECK(p.sum(0, 30) == doctest::Approx(1.0 + 4 + 1));
  const auto c = bem::metrics::respond_to_change(p, 10, 30, 5, 2, 0.3);
  CHECK(c.spike == doctest::Approx(4.5));       // rounds 10..14
  CHECK(c.rate_before == doctest::Approx(0.1));  // rounds 5..9
  // Windows of 2 from round 10: means 1, 1, 1, 0.75, 0.5, 0.25 (tau = 5), ...
  CHECK(c.adaptation.rounds == 5);
  CHECK(c.adaptation.reached);
  CHECK(c.adaptation.window == 2);
  // Back to 0.1 a round: the window [16, 18), tau = 6.
  CHECK(c.recovery.rounds == 6);
  CHECK(c.recovery.reached);
  // Never below the threshold inside the segment: censored at end - from - window + 1.
  const auto never = bem::metrics::time_to_threshold(p, 10, 16, 2, 0.1);
  CHECK_FALSE(never.reached);
  CHECK(never.rounds == 16 - 10 - 2 + 1);
  // A window longer than the span is cut to it.
  const auto cut = bem::metrics::time_to_threshold(p, 20, 23, 10, 0.0);
  CHECK(cut.window == 3);
  CHECK(cut.rounds == 0);
  CHECK(cut.reached);
  // Windows must lie inside the series.
  CHECK_THROWS_AS(bem::metrics::respond_to_change(p, 3, 30, 5, 2, 0.3), std::invalid_argument);
  CHECK_THROWS_AS(bem::metrics::respond_to_change(p, 27, 30, 5, 2, 0.3), std::invalid_argument);
  CHECK_THROWS_AS(p.sum(5, 31), std::out_of_range);
}

TEST_CASE("the parameters are checked at their keys") {
  struct bad_value {
    const char* key;
    bem::parameter_value value;
  };
  const bad_value cases[] = {{"d", std::int64_t{0}},       {"d", std::int64_t{17}},      {"actions", std::int64_t{1}},
                             {"actions", std::int64_t{17}}, {"weight_scale", 0.0},       {"weight_scale", -1.0}};
  for (const auto& [key, value] : cases) {
    CAPTURE(key);
    bem::parameters p;
    p.set(key, value);
    try {
      (void)bem::tasks::contextual_bandit_spec_from(p);
      FAIL("accepted");
    } catch (const bem::parameter_error& e) {
      CHECK(e.key() == key);
    }
  }
  bem::parameters p;
  p.set("d", std::int64_t{16});
  p.set("actions", std::int64_t{16});
  const contextual_bandit_spec s = bem::tasks::contextual_bandit_spec_from(p);
  CHECK(s.d == 16);
  CHECK(s.actions == 16);
  CHECK(s.weight_scale == 1.0);
}

TEST_CASE("UCB1 per context: every untried action in order, then the highest index, per context") {
  bem::ucb1_per_context_policy p({2, 3}, {}, 0);
  for (int a = 0; a < 3; ++a) {
    CHECK(p.choose(1) == a);
    p.learn(1, a, a == 2 ? 1.0 : 0.0);
  }
  CHECK(p.choose(2) == 0);  // another context starts afresh
  // Context 1: means 0, 0, 1 after one pull each: action 2.
  CHECK(p.choose(1) == 2);
  p.learn(1, 2, 0.0);
  p.learn(1, 2, 0.0);
  // Now n = 5: action 2 has mean 1/3 over 3 pulls, 0 and 1 mean 0 over 1.
  const double c = std::sqrt(2.0), l = std::log(5.0);
  const double s0 = 0 + c * std::sqrt(l / 1), s2 = 1.0 / 3 + c * std::sqrt(l / 3);
  CHECK(s0 > s2);
  CHECK(p.choose(1) == 0);  // the first of the two tied untaken-again actions
  CHECK(p.pulls(1, 2) == 3);
}

TEST_CASE("discounted UCB1: the counts decay by gamma at each visit of the context; gamma = 1 is classic UCB1") {
  bem::bandit_policy_settings s;
  s.discount = 0.5;
  bem::discounted_ucb1_per_context_policy p({2, 2}, s, 0);
  CHECK(p.choose(3) == 0);
  p.learn(3, 0, 1.0);
  CHECK(p.choose(3) == 1);  // untried
  p.learn(3, 1, 0.0);
  CHECK(p.count(3, 0) == 0.5);
  CHECK(p.count(3, 1) == 1.0);
  p.learn(3, 1, 0.0);
  CHECK(p.count(3, 0) == 0.25);
  CHECK(p.count(3, 1) == 1.5);
  CHECK(p.count(2, 0) == 0.0);  // other contexts untouched
  // With gamma = 1 the decisions are classic UCB1's, round for round.
  s.discount = 1.0;
  bem::discounted_ucb1_per_context_policy undiscounted({4, 4}, s, 0);
  bem::ucb1_per_context_policy classic({4, 4}, s, 0);
  contextual_bandit env({4, 4, 1.0}, 17);
  for (int t = 0; t < 5000; ++t) {
    const bandit_round r = env.next_round();
    const int a = classic.choose(r.context);
    REQUIRE(undiscounted.choose(r.context) == a);
    classic.learn(r.context, a, (r.rewards >> a) & 1u);
    undiscounted.learn(r.context, a, (r.rewards >> a) & 1u);
  }
  s.discount = 0;
  CHECK_THROWS_AS(bem::discounted_ucb1_per_context_policy({2, 2}, s, 0), std::invalid_argument);
  s.discount = 1.5;
  CHECK_THROWS_AS(bem::discounted_ucb1_per_context_policy({2, 2}, s, 0), std::invalid_argument);
}

TEST_CASE("epsilon-greedy: greedy on the logistic models at epsilon 0, uniform at 1") {
  bem::bandit_policy_settings s;
  s.epsilon = 0;
  bem::epsilon_greedy_logistic_policy greedy({2, 3}, s, 5);
  CHECK(greedy.choose(3) == 0);  // every logit 0: the lowest action
  greedy.learn(3, 1, 1.0);       // theta_1 += 0.1 * (1 - 1/2) * (1, 1, 1)
  CHECK(greedy.choose(3) == 1);
  CHECK(greedy.logit(1) == doctest::Approx(0.15));
  greedy.learn(3, 1, 0.0);  // p = sigma(0.15), theta_1 -= 0.1 p (1, 1, 1)
  CHECK(greedy.logit(1) == doctest::Approx(0.15 - 0.3 * sigmoid(0.15)));
  s.epsilon = 1;
  bem::epsilon_greedy_logistic_policy random({2, 3}, s, 5);
  random.learn(3, 1, 1.0);
  std::vector<int> count(3, 0);
  for (int t = 0; t < 30000; ++t) ++count[static_cast<std::size_t>(random.choose(3))];
  for (int c : count) CHECK(std::abs(c - 10000) < 450);
}

TEST_CASE("LinUCB keeps A^-1 exactly (Sherman-Morrison) and chooses by the upper bound") {
  const int d = 3, m = d + 1;
  bem::linucb_policy p({d, 2}, {}, 0);
  // A = I + sum z z^T over the updates of action 1, inverted directly.
  std::vector<double> A(m * m, 0.0), b(m, 0.0);
  for (int i = 0; i < m; ++i) A[i * m + i] = 1;
  bem::xoshiro256ss rng(3);
  for (int t = 0; t < 40; ++t) {
    const auto x = static_cast<std::uint32_t>(rng.uniform_below(8));
    const double r = rng.bit() ? 1.0 : 0.0;
    p.learn(x, 1, r);
    double z[m];
    for (int j = 0; j < d; ++j) z[j] = (x >> j) & 1u;
    z[d] = 1;
    for (int i = 0; i < m; ++i) {
      b[i] += r * z[i];
      for (int j = 0; j < m; ++j) A[i * m + j] += z[i] * z[j];
    }
  }
  // Gauss-Jordan on [A | I].
  std::vector<double> aug(m * 2 * m, 0.0);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) aug[i * 2 * m + j] = A[i * m + j];
    aug[i * 2 * m + m + i] = 1;
  }
  for (int c = 0; c < m; ++c) {
    const double piv = aug[c * 2 * m + c];
    for (int j = 0; j < 2 * m; ++j) aug[c * 2 * m + j] /= piv;
    for (int i = 0; i < m; ++i)
      if (i != c) {
        const double f = aug[i * 2 * m + c];
        for (int j = 0; j < 2 * m; ++j) aug[i * 2 * m + j] -= f * aug[c * 2 * m + j];
      }
  }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) CHECK(p.inverse(1)[i * m + j] == doctest::Approx(aug[i * 2 * m + m + j]).epsilon(1e-12));
  for (int i = 0; i < m; ++i) CHECK(p.inverse(0)[i * m + i] == 1.0);  // action 0 never updated: A = I
  // The upper bound by hand for context 5: theta . z + sqrt(z^T A^-1 z).
  const double z5[m] = {1, 0, 1, 1};
  double bound1 = 0, width = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      bound1 += z5[i] * aug[i * 2 * m + m + j] * b[j];
      width += z5[i] * aug[i * 2 * m + m + j] * z5[j];
    }
  bound1 += std::sqrt(width);
  const double bound0 = std::sqrt(3.0);  // theta_0 = 0, A_0 = I, |z| = sqrt(3)
  CHECK(p.choose(5) == (bound1 > bound0 ? 1 : 0));
}

TEST_CASE("the header's example: a policy chooses, then learns the reward") {
  bem::linucb_policy p({8, 4}, {}, 1);
  const int a = p.choose(0b1011);
  p.learn(0b1011, a, 1.0);
  CHECK(a >= 0);
  CHECK(a < 4);
}

TEST_CASE("a threshold circuit computes the argmax of its integer scores on every input, lowest on a tie") {
  bem::xoshiro256ss rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    const int d = 1 + static_cast<int>(rng.uniform_below(7)), k = 2 + static_cast<int>(rng.uniform_below(7));
    const std::int64_t range = trial < 10 ? 3 : 300;  // small ranges make ties common
    bem::linear_scores s{d, k, {}};
    for (int i = 0; i < k * (d + 1); ++i)
      s.weights.push_back(static_cast<std::int32_t>(static_cast<std::int64_t>(rng.uniform_below(2 * range + 1)) - range));
    const bem::gate_list g = bem::linear_argmax_circuit(s, 4);
    REQUIRE(g.output_nodes().size() == 4);
    for (std::uint32_t x = 0; x < (1u << d); ++x) {
      std::vector<std::uint64_t> in(static_cast<std::size_t>(d)), out(4);
      for (int j = 0; j < d; ++j) in[static_cast<std::size_t>(j)] = (x >> j) & 1u;
      g.evaluate(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(out));
      int a = 0;
      for (int b = 0; b < 4; ++b) a |= static_cast<int>(out[static_cast<std::size_t>(b)] & 1u) << b;
      CHECK(a == s.best(x));
    }
  }
  CHECK_THROWS_AS(bem::linear_argmax_circuit({2, 5, std::vector<std::int32_t>(15, 0)}, 2), std::invalid_argument);
}

TEST_CASE("the BEM policy acts through bem::machine: a sampled member's circuit writes the action") {
  bem::bandit_policy_settings s;
  s.mid_path_every = 100;
  bem::bem_bandit_policy p({4, 5}, s, 9);
  const auto& m = p.bem();
  CHECK(m.expert_count() == 8);  // the ensemble
  CHECK(m.config().tasks == 1);
  CHECK(m.config().sample);
  contextual_bandit env({4, 5, 1.0}, 9);
  std::vector<int> actions;
  (void)play(p, env, 2000, &actions);
  CHECK(m.steps() == 2000);
  // Refits happened, each an accepted macro_refine, and every member's
  // circuit in the machine computes its scores' argmax on every context.
  const auto& events = p.structural_events();
  REQUIRE(!events.empty());
  for (const auto& e : events) CHECK(e.kind == bem::patch_class::macro_refine);
  CHECK(p.slow().counters().accepted == events.size());
  CHECK(p.slow().counters().rejected == 0);
  for (std::size_t i = 0; i < p.members(); ++i) {
    const auto& circuit = m.expert_at(p.member_slot(i)).circuit();
    for (std::uint32_t x = 0; x < 16; ++x) {
      std::vector<std::uint64_t> in(4), out(4);
      for (int j = 0; j < 4; ++j) in[static_cast<std::size_t>(j)] = (x >> j) & 1u;
      circuit.evaluate(std::span<const std::uint64_t>(in), std::span<std::uint64_t>(out));
      int a = 0;
      for (int b = 0; b < 4; ++b) a |= static_cast<int>(out[static_cast<std::size_t>(b)] & 1u) << b;
      CHECK(a == p.member_scores(i).best(x));
    }
  }
  // The members explore: more than one action is taken at some context.
  std::vector<int> used(5, 0);
  for (int a : actions) used[static_cast<std::size_t>(a)] = 1;
  CHECK(std::count(used.begin(), used.end(), 1) >= 2);
  std::size_t mid = 0;
  for (std::size_t k = 0; k < m.log().size(); ++k) mid += m.log().entry(k).kind == bem::mid_path_kind;
  CHECK(mid == 20);
}

TEST_CASE("the BEM's slow path rejects an unsafe expert with a counterexample: the action must lie in [0, K)") {
  bem::bem_bandit_policy p({4, 5}, {}, 3);
  // Scores over 6 actions whose action 5 always wins: the circuit writes 5 >= K = 5.
  bem::linear_scores unsafe{4, 6, std::vector<std::int32_t>(30, 0)};
  unsafe.weights[5 * 5 + 4] = 100;
  REQUIRE(unsafe.best(0) == 5);
  bem::patch<bem::gate_list> patch;
  patch.kind = bem::patch_class::macro_refine;
  patch.slot = p.member_slot(0);
  patch.experts.push_back(p.member_expert(0, unsafe));
  patch.domains.push_back(bem::state_predicate::constant(false));
  const bem::patch_record& r = p.slow().decide(patch);
  CHECK(r.state == bem::patch_state::rejected);
  CHECK(r.rejection == bem::patch_rejection::vc_fails);
  bool counterexample = false;
  for (const auto& vc : r.vcs) counterexample |= vc.kind == bem::vc_kind::bad_reach && !vc.counterexample.empty();
  CHECK(counterexample);
  CHECK(p.slow().counters().counterexamples == 1);
  // The same member refitted to safe scores is accepted.
  bem::linear_scores safe{4, 5, std::vector<std::int32_t>(25, 0)};
  safe.weights[4 * 5 + 4] = 100;
  patch.experts[0] = p.member_expert(0, safe);
  CHECK(p.slow().decide(patch).state == bem::patch_state::accepted);
}

TEST_CASE("a change triggers the detector, an expert_split of every member, and the extra members merge back") {
  bem::tasks::contextual_bandit_spec spec{4, 3, 2.0};
  bem::tasks::nonstationary_bandit env(spec, 1, 12000, 17);
  const auto rounds = env.draw_rounds();
  bem::bandit_policy_settings s;
  s.ensemble = 4;
  s.max_ensemble = 8;
  s.merge_after = 3000;
  bem::bem_bandit_policy p({4, 3}, s, 17);
  std::size_t most = 0;
  for (std::size_t t = 0; t < rounds.size(); ++t) {
    const int a = p.choose(rounds[t].context);
    p.learn(rounds[t].context, a, (rounds[t].rewards >> a) & 1u);
    most = std::max(most, p.members());
  }
  const auto t_change = static_cast<std::uint64_t>(env.change_points().at(0));
  REQUIRE(!p.alarms().empty());
  CHECK(p.alarms().front() > t_change);  // no false alarm before the change
  CHECK(p.alarms().front() < t_change + 2000);
  CHECK(most == 8);
  CHECK(p.members() == 4);  // merged back after merge_after stable rounds
  std::size_t splits = 0, merges = 0;
  for (const auto& e : p.structural_events()) {
    if (e.kind == bem::patch_class::expert_split) {
      ++splits;
      CHECK(e.round == p.alarms().front());
    }
    if (e.kind == bem::patch_class::expert_merge) {
      ++merges;
      CHECK(e.round >= p.alarms().front() + 3000);
    }
  }
  CHECK(splits == 4);
  CHECK(merges == 4);
  CHECK(p.slow().counters().accepted_by_class[static_cast<std::size_t>(bem::patch_class::expert_split)] == 4);
  CHECK(p.bem().expert_count() == 4);
}

TEST_CASE("no alarm on a stationary bandit") {
  contextual_bandit env({8, 4, 1.0}, 2);
  bem::bem_bandit_policy p({8, 4}, {}, 2);
  (void)play(p, env, 10000);
  CHECK(p.alarms().empty());
}

TEST_CASE("SW-LinUCB and D-LinUCB: LinUCB while nothing is forgotten; the window forgets what left it") {
  contextual_bandit env({5, 3, 1.0}, 8);
  const auto rounds = env.next_rounds(1500);
  bem::bandit_policy_settings s;
  s.window = 2000;  // longer than the run
  s.forgetting = 1.0;
  bem::linucb_policy lin({5, 3}, s, 0);
  bem::sliding_window_linucb_policy sw({5, 3}, s, 0);
  bem::discounted_linucb_policy dl({5, 3}, s, 0);
  for (const auto& r : rounds) {
    const int a = lin.choose(r.context);
    CHECK(sw.choose(r.context) == a);
    CHECK(dl.choose(r.context) == a);
    lin.learn(r.context, a, (r.rewards >> a) & 1u);
    sw.learn(r.context, a, (r.rewards >> a) & 1u);
    dl.learn(r.context, a, (r.rewards >> a) & 1u);
  }
  // A window of 500 after 1,500 rounds chooses as a fresh one fed only the last 500.
  s.window = 500;
  bem::sliding_window_linucb_policy windowed({5, 3}, s, 0), fresh({5, 3}, s, 0);
  std::vector<int> actions;
  for (const auto& r : rounds) actions.push_back(lin.choose(r.context));
  for (std::size_t t = 0; t < rounds.size(); ++t) {
    const double reward = (rounds[t].rewards >> actions[t]) & 1u;
    windowed.learn(rounds[t].context, actions[t], reward);
    if (t >= 1000) fresh.learn(rounds[t].context, actions[t], reward);
  }
  for (std::uint32_t x = 0; x < 32; ++x) CHECK(windowed.choose(x) == fresh.choose(x));
}

TEST_CASE("a policy's state depends on its learn calls only, so they can be replayed to time them") {
  contextual_bandit env({4, 3, 1.0}, 21);
  const auto rounds = env.next_rounds(3000);
  bem::bandit_policy_settings s;
  s.mid_path_every = 50;
  auto check = [&](auto&& played, auto&& replay, auto&& same) {
    std::vector<int> actions;
    for (const auto& r : rounds) {
      const int a = played.choose(r.context);
      actions.push_back(a);
      played.learn(r.context, a, (r.rewards >> a) & 1u);
    }
    for (std::size_t t = 0; t < rounds.size(); ++t)
      replay.learn(rounds[t].context, actions[t], (rounds[t].rewards >> actions[t]) & 1u);
    same(played, replay);
  };
  check(bem::ucb1_per_context_policy({4, 3}, s, 0), bem::ucb1_per_context_policy({4, 3}, s, 0), [](auto& a, auto& b) {
    for (std::uint32_t x = 0; x < 16; ++x)
      for (int k = 0; k < 3; ++k) CHECK(a.pulls(x, k) == b.pulls(x, k));
    for (std::uint32_t x = 0; x < 16; ++x) CHECK(a.choose(x) == b.choose(x));
  });
  check(bem::discounted_ucb1_per_context_policy({4, 3}, s, 0), bem::discounted_ucb1_per_context_policy({4, 3}, s, 0),
        [](auto& a, auto& b) {
          for (std::uint32_t x = 0; x < 16; ++x)
            for (int k = 0; k < 3; ++k) CHECK(a.count(x, k) == b.count(x, k));
        });
  check(bem::linucb_policy({4, 3}, s, 0), bem::linucb_policy({4, 3}, s, 0), [](auto& a, auto& b) {
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 25; ++i) CHECK(a.inverse(k)[i] == b.inverse(k)[i]);
  });
  check(bem::epsilon_greedy_logistic_policy({4, 3}, s, 1), bem::epsilon_greedy_logistic_policy({4, 3}, s, 2),
        [](auto& a, auto& b) {
          for (int k = 0; k < 3; ++k) CHECK(a.logit(k) == b.logit(k));  // both last learned the same context
        });
  check(bem::bem_bandit_policy({4, 3}, s, 1), bem::bem_bandit_policy({4, 3}, s, 1), [](auto& a, auto& b) {
    REQUIRE(a.members() == b.members());
    for (std::size_t i = 0; i < a.members(); ++i) {
      CHECK(a.member_scores(i).weights == b.member_scores(i).weights);
      const auto slot = a.member_slot(i);
      CHECK(a.bem().selection().visits(0, slot) == b.bem().selection().visits(0, slot));
      CHECK(a.bem().selection().wins(0, slot) == b.bem().selection().wins(0, slot));
      CHECK(a.bem().selection().log_weight(slot) == b.bem().selection().log_weight(slot));
    }
    CHECK(a.structural_events().size() == b.structural_events().size());
  });
  auto same_choices = [](auto& a, auto& b) {
    for (std::uint32_t x = 0; x < 16; ++x) CHECK(a.choose(x) == b.choose(x));
  };
  check(bem::sliding_window_linucb_policy({4, 3}, s, 0), bem::sliding_window_linucb_policy({4, 3}, s, 0), same_choices);
  check(bem::discounted_linucb_policy({4, 3}, s, 0), bem::discounted_linucb_policy({4, 3}, s, 0), same_choices);
}

TEST_CASE("the learning policies learn: regret well below the uniform policy's") {
  const std::size_t T = 20000;
  auto regret = [&](auto policy) {
    contextual_bandit env({4, 4, 1.0}, 31);
    return play(policy, env, T);
  };
  const bem::bandit_policy_settings s;
  const bem::bandit_shape shape{4, 4};
  const double uniform = regret(bem::uniform_policy(shape, s, 1));
  CHECK(uniform > 0.05 * T);  // the mean gap of a uniform action is not small here
  CHECK(regret(bem::ucb1_per_context_policy(shape, s, 1)) < 0.5 * uniform);
  CHECK(regret(bem::bem_bandit_policy(shape, s, 1)) < 0.5 * uniform);
  CHECK(regret(bem::epsilon_greedy_logistic_policy(shape, s, 1)) < 0.5 * uniform);
  CHECK(regret(bem::linucb_policy(shape, s, 1)) < 0.2 * uniform);
  CHECK(regret(bem::bem_bandit_policy(shape, s, 1)) < 0.2 * uniform);  // it generalises across contexts
  CHECK(regret(bem::sliding_window_linucb_policy(shape, s, 1)) < 0.2 * uniform);
  CHECK(regret(bem::discounted_linucb_policy(shape, s, 1)) < 0.2 * uniform);
}

TEST_CASE("policies refuse shapes and settings outside their documented ranges") {
  const bem::bandit_policy_settings s;
  CHECK_THROWS_AS(bem::uniform_policy({0, 4}, s, 0), std::invalid_argument);
  CHECK_THROWS_AS(bem::linucb_policy({8, 1}, s, 0), std::invalid_argument);
  CHECK_THROWS_AS(bem::ucb1_per_context_policy({17, 4}, s, 0), std::invalid_argument);
  bem::bandit_policy_settings bad = s;
  bad.mid_path_every = 0;
  CHECK_THROWS_AS(bem::bem_bandit_policy({4, 4}, bad, 0), std::invalid_argument);
  bad = s;
  bad.epsilon = 1.5;
  CHECK_THROWS_AS(bem::epsilon_greedy_logistic_policy({4, 4}, bad, 0), std::invalid_argument);
  bad = s;
  bad.alpha = -1;
  CHECK_THROWS_AS(bem::linucb_policy({4, 4}, bad, 0), std::invalid_argument);
  bad = s;
  bad.max_ensemble = bad.ensemble - 1;
  CHECK_THROWS_AS(bem::bem_bandit_policy({4, 4}, bad, 0), std::invalid_argument);
  bad = s;
  bad.weight_bits = 1;
  CHECK_THROWS_AS(bem::bem_bandit_policy({4, 4}, bad, 0), std::invalid_argument);
  bad = s;
  bad.window = 0;
  CHECK_THROWS_AS(bem::sliding_window_linucb_policy({4, 4}, bad, 0), std::invalid_argument);
  bad = s;
  bad.forgetting = 1.5;
  CHECK_THROWS_AS(bem::discounted_linucb_policy({4, 4}, bad, 0), std::invalid_argument);
}
