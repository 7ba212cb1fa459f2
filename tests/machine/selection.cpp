#include <bem/machine/selection.hpp>
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace {
const bem::ucb_fixed ucb = bem::ucb_fixed::from({});  // c_explore = sqrt(2)
/// z_i as a double.
double z(const bem::selection_table& t, std::size_t i) { return t.log_weight(i).to_double(); }
/// Fixed point: scores and steps agree with the real formulas to about 2^-14.
constexpr double fixed_eps = 1e-3;
}  // namespace

TEST_CASE("UCB1 scores follow the formula, unvisited experts included") {
  bem::selection_table t(2, 4);
  t.record(0, 1, 1.0);
  t.record(0, 1, 0.0);
  t.record(0, 2, 1.0);
  // N_0 = 3: expert 1 has 1 win in 2 visits, expert 2 one in one, expert 0 none.
  CHECK(t.score(0, 1) == doctest::Approx(0.5 + std::sqrt(2.0) * std::sqrt(std::log(3.0) / 2)).epsilon(fixed_eps));
  CHECK(t.score(0, 2) == doctest::Approx(1.0 + std::sqrt(2.0) * std::sqrt(std::log(3.0))).epsilon(fixed_eps));
  CHECK(t.score(0, 0) == doctest::Approx(0.0 + std::sqrt(2.0) * std::sqrt(std::log(3.0))).epsilon(fixed_eps));
  // Task 1 has no visits: log(max(1, 0)) = 0, every score is 0.
  CHECK(t.score(1, 2) == 0.0);
}

TEST_CASE("select_top ranks by score, ties in the candidates' (the router's) order") {
  bem::selection_table t(1, 8);
  for (int i = 0; i < 3; ++i) t.record(0, 5, 1.0);
  t.record(0, 3, 1.0);
  t.record(0, 3, 1.0);
  t.record(0, 6, 0.0);
  const std::array<std::uint32_t, 6> cands{6, 0, 5, 3, 7, 2};
  std::array<std::uint32_t, 4> out{};
  const auto n = t.select_top(0, cands, 4, out, ucb);
  CHECK(n == 4);
  // N = 6. Expert 3: 1 + sqrt(2 log 6 / 2) = 2.34; expert 5: 1 + sqrt(2 log 6 / 3) = 2.09;
  // experts 0, 2, 6 (one visit, no win) and 7 tie at sqrt(2 log 6) = 1.89:
  // in candidate order, 6 before 0.
  CHECK(out == std::array<std::uint32_t, 4>{3, 5, 6, 0});
  // No statistics at all: every score is equal and the router's order stands.
  const bem::selection_table cold(1, 8);
  CHECK(cold.select_top(0, cands, 4, out, ucb) == 4);
  CHECK(out == std::array<std::uint32_t, 4>{6, 0, 5, 3});
  // Brute force agreement on random statistics.
  bem::xoshiro256ss rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    bem::selection_table r(1, 16);
    for (int i = 0; i < 40; ++i) r.record(0, rng.uniform_below(16), static_cast<double>(rng.uniform_below(2)));
    std::vector<std::uint32_t> c(16);
    for (std::uint32_t i = 0; i < 16; ++i) c[i] = (i * 7) % 16;
    std::vector<std::uint32_t> sorted = c;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](auto a, auto b) { return r.score_raw(0, a, ucb) > r.score_raw(0, b, ucb); });
    std::array<std::uint32_t, 3> top{};
    REQUIRE(r.select_top(0, c, 3, top, ucb) == 3);
    CHECK(top[0] == sorted[0]);
    CHECK(top[1] == sorted[1]);
    CHECK(top[2] == sorted[2]);
  }
}

TEST_CASE("mid-path log-weights follow the clipped AdaGrad step") {
  bem::selection_table t(1, 2);
  bem::log_weight_parameters p;
  p.c_eta = 0.3;
  p.step_max = 0.25;
  t.record(0, 0, 0.0);  // loss 1
  t.record(0, 0, 1.0);  // loss 0 -> mean 0.5
  t.update_log_weights(p);
  const double eta1 = 0.3 / std::sqrt(0.25 + p.eps);
  CHECK(z(t, 0) == doctest::Approx(-std::min(eta1 * 0.5, 0.25)).epsilon(fixed_eps));
  CHECK(z(t, 1) == 0.0);  // no visits, no update
  t.record(0, 0, 1.0);    // loss 0
  t.update_log_weights(p);
  CHECK(z(t, 0) == doctest::Approx(-0.25));  // g = 0: no change

  // The accumulator S sums the squared steps of every update: with losses
  // 0.6 then 0.8, eta is c_eta / sqrt(0.36) then c_eta / sqrt(0.36 + 0.64).
  bem::selection_table u(1, 1);
  bem::log_weight_parameters q;
  q.c_eta = 0.1;
  q.step_max = 10.0;  // no step clipping
  for (int i = 0; i < 5; ++i) u.record(0, 0, i < 3 ? 0.0 : 1.0);  // mean loss 0.6
  u.update_log_weights(q);
  const double z1 = -(0.1 / std::sqrt(0.36 + q.eps)) * 0.6;
  CHECK(z(u, 0) == doctest::Approx(z1).epsilon(fixed_eps));
  for (int i = 0; i < 5; ++i) u.record(0, 0, i < 4 ? 0.0 : 1.0);  // mean loss 0.8
  u.update_log_weights(q);
  CHECK(z(u, 0) == doctest::Approx(z1 - (0.1 / std::sqrt(0.36 + 0.64 + q.eps)) * 0.8).epsilon(fixed_eps));
  // Losses clip at L_max before they enter S.
  bem::selection_table v(1, 1);
  q.loss_max = 0.5;
  v.record(0, 0, 0.0);  // loss 1, clipped to 0.5
  v.update_log_weights(q);
  CHECK(z(v, 0) == doctest::Approx(-(0.1 / std::sqrt(0.25 + q.eps)) * 0.5).epsilon(fixed_eps));
}

TEST_CASE("sampling follows exp(z + score) and is reproducible") {
  bem::selection_table t(1, 3);
  for (int i = 0; i < 50; ++i) t.record(0, 0, 1.0);
  for (int i = 0; i < 50; ++i) t.record(0, 1, 0.0);
  const std::array<std::uint32_t, 2> c{0, 1};
  bem::xoshiro256ss a(1), b(1);
  int zeros = 0;
  for (int i = 0; i < 10000; ++i) {
    const auto x = t.sample(0, c, a, ucb);
    CHECK(x == t.sample(0, c, b, ucb));
    zeros += x == 0;
  }
  const double expected = 1.0 / (1.0 + std::exp(-1.0));  // score gap of exactly 1 (equal visits)
  CHECK(zeros / 10000.0 == doctest::Approx(expected).epsilon(0.03));

  // The log-weights take part: equal scores, z_0 - z_1 = -0.5 after expert
  // 0's losses, so expert 0 is drawn with probability 1 / (1 + e^0.5).
  bem::selection_table w(1, 2);
  bem::log_weight_parameters p;
  p.c_eta = 0.5;
  p.step_max = 0.5;
  w.record(0, 0, 0.0);
  w.update_log_weights(p);  // z_0 = -clip(0.5 / sqrt(1) * 1, 0.5) = -0.5
  w.record(0, 1, 0.0);      // the same statistics for both: equal scores
  w.record(0, 0, 0.0);
  w.record(0, 1, 0.0);
  w.update_log_weights(bem::log_weight_parameters{0.0, 1e-8, 1.0, 0.5});  // c_eta = 0: statistics only
  REQUIRE(w.score(0, 0) == w.score(0, 1));
  REQUIRE(z(w, 0) == doctest::Approx(-0.5));
  REQUIRE(z(w, 1) == 0.0);
  bem::xoshiro256ss g(2);
  int first = 0;
  for (int i = 0; i < 20000; ++i) first += w.sample(0, c, g, ucb) == 0;
  CHECK(first / 20000.0 == doctest::Approx(1.0 / (1.0 + std::exp(0.5))).epsilon(0.03));

  // Candidates outside the table are rejected before anything is read.
  const std::array<std::uint32_t, 2> outside{0, 2};
  CHECK_THROWS_AS(w.sample(0, outside, g, ucb), std::out_of_range);
}

TEST_CASE("log-weights rank experts by their losses: one learning rate for all experts") {
  // Mean losses 0.1 (expert 0) and 0.9 (expert 1), one update. Per-expert
  // accumulators (S_i = g_i^2) would give both eta_i * g_i = c_eta: equal
  // log-weights whatever the losses. The shared S = 0.01 + 0.81 keeps them
  // in proportion to the losses.
  bem::log_weight_parameters p;
  p.step_max = 10.0;  // no step clipping
  bem::selection_table t(1, 2);
  for (int i = 0; i < 10; ++i) t.record(0, 0, i < 9 ? 1.0 : 0.0);
  for (int i = 0; i < 10; ++i) t.record(0, 1, i < 1 ? 1.0 : 0.0);
  t.update_log_weights(p);
  const double eta = p.c_eta / std::sqrt(0.01 + 0.81 + p.eps);
  CHECK(z(t, 0) == doctest::Approx(-eta * 0.1).epsilon(fixed_eps));
  CHECK(z(t, 1) == doctest::Approx(-eta * 0.9).epsilon(fixed_eps));
  CHECK(z(t, 0) - z(t, 1) > 0.05);
  CHECK(t.loss_accumulator() == doctest::Approx(0.82).epsilon(fixed_eps));
  // Over many updates with the same losses the gap keeps growing.
  double gap = z(t, 0) - z(t, 1);
  for (int u = 0; u < 200; ++u) {
    for (int i = 0; i < 10; ++i) t.record(0, 0, i < 9 ? 1.0 : 0.0);
    for (int i = 0; i < 10; ++i) t.record(0, 1, i < 1 ? 1.0 : 0.0);
    t.update_log_weights(p);
    const double g = z(t, 0) - z(t, 1);
    REQUIRE(g > gap);
    gap = g;
  }
  // The update does not depend on the slots' order.
  bem::selection_table r(1, 2);
  for (int i = 0; i < 10; ++i) r.record(0, 1, i < 9 ? 1.0 : 0.0);
  for (int i = 0; i < 10; ++i) r.record(0, 0, i < 1 ? 1.0 : 0.0);
  r.update_log_weights(p);
  CHECK(z(r, 1) == doctest::Approx(-eta * 0.1).epsilon(fixed_eps));
  CHECK(z(r, 0) == doctest::Approx(-eta * 0.9).epsilon(fixed_eps));
}

TEST_CASE("rewards outside [0, 1] and bad log-weight parameters are refused, changing nothing") {
  bem::selection_table t(1, 2);
  for (const double r : {-0.25, 1.5, std::nan("")}) CHECK_THROWS_AS(t.record(0, 0, r), std::invalid_argument);
  CHECK(t.visits(0, 0) == 0);
  CHECK(t.task_visits(0) == 0);
  CHECK(t.wins(0, 0) == 0.0);
  t.record(0, 0, 1.0);  // the bounds are fine
  t.record(0, 0, 0.0);
  t.update_log_weights();
  const bem::q16_16 before = t.log_weight(0);
  // eps = 0 made a zero mean loss inf * 0 = NaN; negative bounds gave
  // std::clamp an empty range (undefined behaviour).
  for (const bem::log_weight_parameters bad :
       {bem::log_weight_parameters{0.1, 0.0, 1.0, 0.5}, bem::log_weight_parameters{0.1, 1e-8, -1.0, 0.5},
        bem::log_weight_parameters{0.1, 1e-8, 1.0, -0.5}, bem::log_weight_parameters{-0.1, 1e-8, 1.0, 0.5},
        bem::log_weight_parameters{std::nan(""), 1e-8, 1.0, 0.5}}) {
    t.record(0, 0, 1.0);
    CHECK_THROWS_AS(t.update_log_weights(bad), std::invalid_argument);
    CHECK(t.log_weight(0) == before);
  }
}
