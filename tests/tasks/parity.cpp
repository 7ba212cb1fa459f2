// Parity and majority (suite section 3.1): laws, reference solvers, labels
// re-derived from the bits, parameter errors and pinned data.
#include "reference_check.hpp"

#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>
#include <tasks/laws.hpp>
#include <tasks/parity.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace bem::tasks;

namespace {
template <class Task>
Task make_parity(std::vector<std::int64_t> train = {}, std::vector<std::int64_t> test = {}) {
  bem::parameters p;
  if (!train.empty()) p.set("train_lengths", train);
  if (!test.empty()) p.set("test_lengths", test);
  Task t(p);
  p.check_all_used();
  return t;
}

}  // namespace

TEST_CASE_TEMPLATE("parity and majority obey the task laws", T, parity_task, majority_task) {
  CHECK(check_task_laws(make_parity<T>(), 7) == "");
  CHECK(check_task_laws(make_parity<T>({5, 7, 7}, {1, 2, 300}), 3, 32) == "");
  CHECK(check_task_laws(make_parity<T>({1}, {1}), 9) == "");
  const auto task = make_parity<T>();
  const auto splits = task.splits();
  REQUIRE(splits.size() == 8);
  CHECK(splits[0].name == "train");
  CHECK(splits[0].role == split_role::train);
  CHECK(splits[0].length == 64);
  CHECK(splits[0].condition[0].json_value == "\"16,32,64\"");
  CHECK(splits[1].name == "validation");
  CHECK(splits[1].role == split_role::validation);
  CHECK(splits[2].name == "test/T=8");
  CHECK(splits[7].name == "test/T=256");
  CHECK(splits[7].length == 256);
  CHECK(splits[7].condition[0].key == "length");
  CHECK(splits[7].condition[0].json_value == "256");
  CHECK(task.spec().output == output_kind::binary_final);
}

TEST_CASE_TEMPLATE("parity and majority reference solvers are exact", T, parity_task, majority_task) {
  CHECK(bem_test::reference_is_exact(make_parity<T>(), 3, 256));
  CHECK(bem_test::reference_is_exact(make_parity<T>({1, 2, 3, 4, 5}, {1, 3, 999, 1000}), 4, 128));
}

TEST_CASE("the parity reference solvers read only the real tokens") {
  // Padding full of ones (which the generator never writes) must not change the answers.
  const auto par = make_parity<parity_task>();
  const auto maj = make_parity<majority_task>();
  sequence_batch b;
  par.generate(0, 5, 0, 64, b);
  for (std::int32_t i = 0; i < b.batch_size; ++i)
    for (std::int32_t t = b.lengths[static_cast<std::size_t>(i)]; t < b.length; ++t)
      b.input(i, t) = t + 1 < b.length ? 1 : 0;  // an odd number of ones: a solver reading them flips
  parity_reference pr;
  majority_reference mr;
  pr.reset(par.spec(), 0);
  mr.reset(maj.spec(), 0);
  prediction po, mo;
  po.reset_for(b, par.spec());
  mo.reset_for(b, maj.spec());
  pr.predict(b, po);
  mr.predict(b, mo);
  int padded = 0;
  for (std::int32_t i = 0; i < b.batch_size; ++i) {
    const std::int32_t len = b.lengths[static_cast<std::size_t>(i)];
    int sum = 0;
    for (std::int32_t t = 0; t < len; ++t) sum += b.input(i, t);
    CHECK((po.at(i, len - 1)[0] > 0) == (sum % 2 == 1));
    CHECK((mo.at(i, len - 1)[0] > 0) == (2 * sum >= len));
    CHECK(po.at(i, b.length - 1)[0] == po.at(i, len - 1)[0]);  // the answer is held over the padding
    CHECK(mo.at(i, b.length - 1)[0] == mo.at(i, len - 1)[0]);
    padded += len < b.length;
  }
  CHECK(padded > 20);
}

TEST_CASE("parity and majority labels follow the seed's definitions") {
  const auto par = make_parity<parity_task>({16, 32, 64}, {8, 17, 256});
  const auto maj = make_parity<majority_task>({16, 32, 64}, {8, 17, 256});
  for (std::size_t split = 0; split < par.splits().size(); ++split) {
    sequence_batch p, m;
    par.generate(split, 11, 0, 300, p);
    maj.generate(split, 11, 0, 300, m);
    CHECK(p.inputs == m.inputs);  // same split name and seed: same bits and lengths
    CHECK(p.lengths == m.lengths);
    const auto info = par.splits()[split];
    int ties = 0;
    for (std::int32_t b = 0; b < 300; ++b) {
      const std::int32_t len = p.lengths[static_cast<std::size_t>(b)];
      if (info.role == split_role::test) CHECK(len == info.length);
      else CHECK((len == 16 || len == 32 || len == 64));
      int x = 0, sum = 0;
      for (std::int32_t t = 0; t < p.length; ++t) {
        if (t >= len) {
          CHECK(p.input(b, t) == 0);  // padding
          CHECK(p.target(b, t) == 0);
        } else {
          x ^= p.input(b, t);
          sum += p.input(b, t);
        }
        CHECK(p.scored(b, t) == (t == len - 1));
        CHECK(m.scored(b, t) == (t == len - 1));
      }
      ties += 2 * sum == len;
      CHECK(p.target(b, len - 1) == x);
      CHECK(m.target(b, len - 1) == (2 * sum >= len ? 1 : 0));  // sum >= T/2, a tie counts as 1
    }
    if (info.length % 2 == 0) CHECK(ties > 0);  // the tie rule is exercised
  }
}

TEST_CASE("training lengths are drawn uniformly from the list, validation has its own stream") {
  const auto task = make_parity<parity_task>({16, 32, 32, 64});
  sequence_batch train, valid;
  task.generate(0, 2, 0, 8000, train);
  task.generate(1, 2, 0, 8000, valid);
  std::map<std::int32_t, int> counts;
  for (auto L : train.lengths) ++counts[L];
  CHECK(counts.size() == 3);
  CHECK(counts[16] > 1800);  // expected 2000 each for 16 and 64, 4000 for the repeated 32
  CHECK(counts[16] < 2200);
  CHECK(counts[32] > 3800);
  CHECK(counts[32] < 4200);
  CHECK(counts[64] > 1800);
  CHECK(counts[64] < 2200);
  CHECK(train.inputs != valid.inputs);
  std::int64_t ones = 0, bits = 0;
  for (std::int32_t b = 0; b < 8000; ++b)
    for (std::int32_t t = 0; t < train.lengths[static_cast<std::size_t>(b)]; ++t) {
      ones += train.input(b, t);
      ++bits;
    }
  CHECK(static_cast<double>(ones) / static_cast<double>(bits) == doctest::Approx(0.5).epsilon(0.01));
}

TEST_CASE("bad parity parameters are rejected with the key named") {
  bem::parameters a;
  a.set("train_lengths", std::vector<std::int64_t>{});
  CHECK_THROWS_WITH_AS(parity_task{a}, doctest::Contains("'train_lengths'"), bem::parameter_error);
  bem::parameters b;
  b.set("test_lengths", std::vector<std::int64_t>{8, 0});
  CHECK_THROWS_WITH_AS(majority_task{b}, doctest::Contains("'test_lengths'"), bem::parameter_error);
  bem::parameters c;
  c.set("test_lengths", std::vector<std::int64_t>{8, 16, 8});
  CHECK_THROWS_WITH_AS(parity_task{c}, doctest::Contains("'test_lengths': lists 8 twice"), bem::parameter_error);
  bem::parameters d;
  d.set("train_lengths", std::string("long"));
  CHECK_THROWS_WITH_AS(majority_task{d}, doctest::Contains("'train_lengths': expected a list"), bem::parameter_error);
  bem::parameters e;
  e.set("length", std::int64_t{5});
  parity_task t(e);
  CHECK_THROWS_WITH_AS(e.check_all_used(), doctest::Contains("'length': unknown parameter"), bem::parameter_error);
}

TEST_CASE("parity and majority data is pinned") {
  // Changing the generator must change the task's version.
  sequence_batch b;
  make_parity<parity_task>().generate(0, 1, 0, 16, b);
  CHECK(bem_test::batch_fingerprint(b) == 13463562104153107141ull);
  make_parity<majority_task>().generate(4, 1, 100, 16, b);  // test/T=32, sequences 100..115
  CHECK(bem_test::batch_fingerprint(b) == 5241760014160942357ull);
}
