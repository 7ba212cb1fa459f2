// The majority-class baseline against the closed forms of REFERENCE.md §2.
#include "reference_check.hpp"

#include <bem/harness/baselines.hpp>
#include <doctest/doctest.h>
#include <tasks/temporal.hpp>

#include <cmath>
#include <vector>

using namespace bem::tasks;

namespace {
// P(Binomial(t, 1/2) >= k), exactly enough in double for t <= 1100.
double tail_at_least(int t, int k) {
  std::vector<double> p(static_cast<std::size_t>(t) + 1, 0.0);
  p[0] = 1.0;
  for (int n = 1; n <= t; ++n)
    for (int j = n; j >= 0; --j) p[static_cast<std::size_t>(j)] = 0.5 * (p[static_cast<std::size_t>(j)] + (j ? p[static_cast<std::size_t>(j) - 1] : 0.0));
  double s = 0;
  for (int j = k; j <= t; ++j) s += p[static_cast<std::size_t>(j)];
  return s;
}
// Expected per-position accuracy of "always 1" over positions 1..T.
double always_one_fsm(int T) {
  double s = 0;
  for (int t = 1; t <= T; ++t) s += tail_at_least(t, 3);
  return s / T;
}
double always_one_rtc(int T) {
  double s = 0;
  for (int t = 1; t <= T; ++t) s += tail_at_least(t, (t + 1) / 2);
  return s / T;
}

template <class Task>
double trained_majority_accuracy(int T, int test_count) {
  bem::parameters p;
  p.set("length", std::int64_t{T});
  Task task(p);
  bem::majority_class_model m;
  m.reset(task.spec(), 1);
  m.set_learning(true);
  sequence_batch train;
  task.generate(0, 1, 0, 64, train);
  m.learn(train);
  m.set_learning(false);
  return bem_test::accuracy(task, m, 2, 9, test_count);
}
}  // namespace

TEST_CASE("closed forms reproduce REFERENCE.md's always-1 values") {
  CHECK(always_one_fsm(16) == doctest::Approx(0.688).epsilon(0.001));
  CHECK(always_one_fsm(64) == doctest::Approx(0.922).epsilon(0.001));
  CHECK(always_one_fsm(1024) == doctest::Approx(0.995).epsilon(0.001));
  CHECK(always_one_rtc(16) == doctest::Approx(0.573).epsilon(0.001));
  CHECK(always_one_rtc(64) == doctest::Approx(0.543).epsilon(0.001));
  CHECK(always_one_rtc(1024) == doctest::Approx(0.512).epsilon(0.001));
}

TEST_CASE("the majority-class model learns label 1 and scores the analytic value") {
  // 20000 sequences: the standard error of the mean is below 0.002.
  for (int T : {16, 64}) {
    CAPTURE(T);
    CHECK(trained_majority_accuracy<fsm_task>(T, 20000) == doctest::Approx(always_one_fsm(T)).epsilon(0.006));
    CHECK(trained_majority_accuracy<rtc_task>(T, 20000) == doctest::Approx(always_one_rtc(T)).epsilon(0.006));
  }
}

TEST_CASE("with learning off the majority-class model does not change") {
  bem::parameters p;
  rtc_task task(p);
  bem::majority_class_model m;
  m.reset(task.spec(), 1);
  m.set_learning(false);
  sequence_batch b;
  task.generate(0, 1, 0, 8, b);
  m.learn(b);
  for (auto c : m.counts()) CHECK(c == 0);
}

TEST_CASE("the majority-class model's loss and logits by hand (add-one smoothing)") {
  task_spec spec;  // binary per position
  bem::majority_class_model m;
  m.reset(spec, 1);
  sequence_batch b;
  b.reset(1, 5);
  const int targets[5] = {1, 1, 0, 1, 0};
  for (int t = 0; t < 5; ++t) {
    b.target(0, t) = targets[t];
    b.scored(0, t) = t < 4;  // the last position is not scored, so not counted
  }
  // Nothing counted yet: p = 1/2 each, so log 2 nats per scored position.
  CHECK(m.learn(b) == doctest::Approx(std::log(2.0)));
  CHECK(m.counts() == std::vector<std::int64_t>{1, 3});
  // Now p(0) = 2/6, p(1) = 4/6: the mean over the four scored positions.
  CHECK(m.learn(b) == doctest::Approx(-(3 * std::log(4.0 / 6) + std::log(2.0 / 6)) / 4));
  prediction out;
  out.reset_for(b, spec);
  m.predict(b, out);
  for (float logit : out.logits) CHECK(logit == doctest::Approx(std::log(7.0 / 3)));  // counts {2, 6}: 7/10 vs 3/10

  // Class outputs: every position gets the smoothed log-probabilities, which sum to one.
  task_spec classes;
  classes.output = output_kind::class_final;
  classes.num_classes = 3;
  m.reset(classes, 1);
  sequence_batch c;
  c.reset(2, 3);
  c.target(0, 2) = 2;
  c.scored(0, 2) = 1;
  c.target(1, 2) = 2;
  c.scored(1, 2) = 1;
  CHECK(m.learn(c) == doctest::Approx(std::log(3.0)));
  prediction pc;
  pc.reset_for(c, classes);
  m.predict(c, pc);
  const float* at = pc.at(1, 0);
  CHECK(at[0] == doctest::Approx(std::log(1.0 / 5)));
  CHECK(at[1] == doctest::Approx(std::log(1.0 / 5)));
  CHECK(at[2] == doctest::Approx(std::log(3.0 / 5)));
}
