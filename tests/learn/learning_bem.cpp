// The learning BEM on the library's tasks: trained on short sequences, it
// must answer longer ones without error (parity, majority, Dyck-1 online and
// final, RTC, TXC, FSM), retrieve values (key-value retrieval), choose the
// right hypothesis by its held-out record, and leave itself unchanged when
// it evaluates.
#include <bem/harness/parameters.hpp>
#include <bem/learn/learning_bem.hpp>
#include <tasks/dyck.hpp>
#include <tasks/kv_retrieval.hpp>
#include <tasks/parity.hpp>
#include <tasks/temporal.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace learning_bem_test {
namespace {

using bem::learn::learning_bem;

template <class Task>
Task make_task(const std::vector<std::pair<std::string, bem::parameter_value>>& params) {
  bem::parameters p;
  for (const auto& [k, v] : params) p.set(k, v);
  Task t(p);
  p.check_all_used();
  return t;
}

/// Trains on the train split (batches of 64), holding out as the model
/// decides; returns the model.
template <class Task>
learning_bem trained(const Task& task, int batches, std::uint64_t seed) {
  learning_bem model;
  model.reset(task.spec(), seed);
  bem::tasks::sequence_batch b;
  for (int i = 0; i < batches; ++i) {
    task.generate(0, seed, std::int64_t{64} * i, 64, b);
    model.learn(b);
  }
  model.set_learning(false);
  return model;
}

/// Accuracy on `count` sequences of split `split`.
template <class Task>
double accuracy(const Task& task, learning_bem& model, std::size_t split, std::int32_t count, std::uint64_t seed) {
  bem::tasks::sequence_batch b;
  bem::tasks::prediction out;
  task.generate(split, seed, 0, count, b);
  model.predict(b, out);
  const auto spec = task.spec();
  std::int64_t right = 0, total = 0;
  for (std::int32_t s = 0; s < b.batch_size; ++s)
    for (std::int32_t t = 0; t < b.length; ++t) {
      if (!b.scored(s, t)) continue;
      const float* l = out.at(s, t);
      std::int32_t guess = 0;
      if (spec.output == bem::tasks::output_kind::class_final)
        guess = static_cast<std::int32_t>(std::max_element(l, l + out.width) - l);
      else
        guess = l[0] > 0 ? 1 : 0;
      right += guess == b.target(s, t);
      ++total;
    }
  return static_cast<double>(right) / static_cast<double>(total);
}

/// The index of the split named `name`.
template <class Task>
std::size_t split_named(const Task& task, const std::string& name) {
  const auto s = task.splits();
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i].name == name) return i;
  FAIL("no split " << name);
  return 0;
}

}  // namespace

TEST_CASE("parity and majority: trained on T <= 64, no error at T = 1024") {
  const auto parity = make_task<bem::tasks::parity_task>({{"test_lengths", std::vector<std::int64_t>{1024}}});
  learning_bem p = trained(parity, 12, 1);
  CHECK(accuracy(parity, p, split_named(parity, "test/T=1024"), 128, 7) == 1.0);
  REQUIRE(p.chosen_hypothesis() != nullptr);
  CHECK(p.chosen_hypothesis()->family == learning_bem::moore);  // parity is no counter

  const auto majority = make_task<bem::tasks::majority_task>({{"test_lengths", std::vector<std::int64_t>{1024}}});
  learning_bem m = trained(majority, 12, 2);
  CHECK(accuracy(majority, m, split_named(majority, "test/T=1024"), 128, 7) == 1.0);
  REQUIRE(m.chosen_hypothesis() != nullptr);
  CHECK(m.chosen_hypothesis()->family == learning_bem::counter);  // majority is no finite-state machine
}

TEST_CASE("temporal tasks: RTC, TXC and FSM trained at T = 64, no error at T = 1024") {
  const std::vector<std::pair<std::string, bem::parameter_value>> params{
      {"length", std::int64_t{64}}, {"test_lengths", std::vector<std::int64_t>{1024}}};
  const auto rtc = make_task<bem::tasks::rtc_task>(params);
  const auto txc = make_task<bem::tasks::txc_task>(params);
  const auto fsm = make_task<bem::tasks::fsm_task>(params);
  learning_bem a = trained(rtc, 8, 3), b = trained(txc, 8, 3), c = trained(fsm, 8, 3);
  CHECK(accuracy(rtc, a, split_named(rtc, "test/T=1024"), 64, 5) == 1.0);
  CHECK(accuracy(txc, b, split_named(txc, "test/T=1024"), 64, 5) == 1.0);
  CHECK(accuracy(fsm, c, split_named(fsm, "test/T=1024"), 64, 5) == 1.0);
}

TEST_CASE("Dyck-1, online and final labels: trained at T = 32, D = 4; no error at T = 128, D = 8") {
  for (const std::string labels : {"online", "final"}) {
    CAPTURE(labels);
    const auto dyck = make_task<bem::tasks::dyck1_task>({{"labels", labels},
                                                         {"test_lengths", std::vector<std::int64_t>{128}},
                                                         {"test_depths", std::vector<std::int64_t>{8}}});
    learning_bem m = trained(dyck, 12, 4);
    CHECK(accuracy(dyck, m, split_named(dyck, "test/T=128,D=8"), 128, 9) == 1.0);
    REQUIRE(m.chosen_hypothesis() != nullptr);
    CHECK(m.chosen_hypothesis()->family == learning_bem::counter);
  }
}

TEST_CASE("key-value retrieval: the induction memory recalls at K_train and 2 K_train, every query position") {
  const auto kv = make_task<bem::tasks::kv_retrieval_task>(
      {{"pairs", std::int64_t{8}}, {"n_keys", std::int64_t{32}}, {"n_values", std::int64_t{32}},
       {"missing_fraction", 0.1}});
  learning_bem m = trained(kv, 6, 5);
  REQUIRE(m.chosen_hypothesis() != nullptr);
  CHECK(m.chosen_hypothesis()->family == learning_bem::recall);
  for (const char* split : {"test/K=8,pos=early", "test/K=16,pos=late", "test/K=16,pos=middle"})
    CHECK_MESSAGE(accuracy(kv, m, split_named(kv, split), 256, 11) == 1.0, split);
}

TEST_CASE("evaluation freezes statistics and structure and leaves STATE and SHARED as they were") {
  const auto txc = make_task<bem::tasks::txc_task>({{"length", std::int64_t{32}}});
  learning_bem m = trained(txc, 8, 6);
  const auto stats = m.bem().selection().image();
  const auto slots = m.bem().slot_count();
  const auto gates = m.parameter_count();
  const auto state = m.bem().state_words();
  const std::vector<std::uint64_t> shared(m.bem().shared().words().begin(), m.bem().shared().words().end());
  const auto decided = m.slow().decided().size();
  bem::tasks::sequence_batch b;
  bem::tasks::prediction first, second;
  txc.generate(2, 3, 0, 100, b);
  m.predict(b, first);
  m.predict(b, second);
  CHECK(first.logits == second.logits);
  CHECK(std::isnan(m.learn(b)));  // learning is off: learn does nothing
  CHECK(m.bem().selection().image() == stats);
  CHECK(m.bem().slot_count() == slots);
  CHECK(m.parameter_count() == gates);
  CHECK(m.bem().state_words() == state);
  CHECK(std::equal(shared.begin(), shared.end(), m.bem().shared().words().begin()));
  CHECK(m.slow().decided().size() == decided);
}

TEST_CASE("the same seed and batches give the same model; every hypothesis came through the slow path") {
  const auto fsm = make_task<bem::tasks::fsm_task>({{"length", std::int64_t{32}}});
  learning_bem a = trained(fsm, 8, 8), b = trained(fsm, 8, 8);
  REQUIRE(a.hypotheses().size() == b.hypotheses().size());
  for (std::size_t i = 0; i < a.hypotheses().size(); ++i) CHECK(a.hypotheses()[i].description == b.hypotheses()[i].description);
  CHECK(a.bem().selection().image() == b.bem().selection().image());
  CHECK(a.slow().counters().accepted >= a.hypotheses().size());
  // Each hypothesis's expert is live in its own shard and pins itself there.
  for (const auto& h : a.hypotheses()) {
    CHECK(a.bem().slot_live(h.slot));
    CHECK(bem::identifier_shard(a.bem().expert_at(h.slot).id()) == h.shard);
  }
}

}  // namespace learning_bem_test
