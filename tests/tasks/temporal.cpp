#include "reference_check.hpp"

#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>
#include <tasks/laws.hpp>
#include <tasks/temporal.hpp>

#include <cstdint>

using namespace bem::tasks;

namespace {
template <class Task>
Task make(std::int64_t length, std::vector<std::int64_t> tests = {}) {
  bem::parameters p;
  p.set("length", length);
  if (!tests.empty()) p.set("test_lengths", tests);
  Task t(p);
  p.check_all_used();
  return t;
}
}  // namespace

TEST_CASE_TEMPLATE("temporal tasks obey the task laws", T, rtc_task, txc_task, fsm_task) {
  const auto task = make<T>(33, {1, 16, 100});
  CHECK(check_task_laws(task, 7) == "");
  CHECK(task.splits().size() == 5);
}

TEST_CASE_TEMPLATE("temporal reference solvers are exact", T, rtc_task, txc_task, fsm_task) {
  const auto task = make<T>(64, {16, 257, 2048});
  CHECK(bem_test::reference_is_exact(task, 3, 64));
}

TEST_CASE("temporal labels follow the seed's definitions position by position") {
  const auto rtc = make<rtc_task>(50);
  const auto txc = make<txc_task>(50);
  const auto fsm = make<fsm_task>(50);
  sequence_batch r, x, f;
  rtc.generate(0, 11, 0, 20, r);
  txc.generate(0, 11, 0, 20, x);
  fsm.generate(0, 11, 0, 20, f);
  CHECK(r.inputs == x.inputs);  // same split name, same seed: same bits
  CHECK(r.inputs == f.inputs);
  for (int b = 0; b < 20; ++b) {
    int c = 0;
    for (int t = 0; t < 50; ++t) {
      c += r.input(b, t);
      const int pos = t + 1;
      CHECK(r.target(b, t) == (c >= (pos + 1) / 2 ? 1 : 0));  // ceil(t/2)
      CHECK(x.target(b, t) == c % 2);
      CHECK(f.target(b, t) == (c >= 3 ? 1 : 0));
      CHECK(r.scored(b, t));
    }
  }
}

TEST_CASE("the bits are fair and the data is pinned") {
  const auto task = make<txc_task>(1000);
  sequence_batch b;
  task.generate(2, 5, 0, 100, b);  // the test split
  std::int64_t ones = 0;
  for (auto v : b.inputs) ones += v;
  CHECK(ones > 49000);
  CHECK(ones < 51000);
  // The first tokens of seed 1 are part of the specification: changing the
  // generator must change the task's version.
  task.generate(0, 1, 0, 1, b);
  std::uint64_t fingerprint = 0;
  for (int t = 0; t < 64; ++t) fingerprint = (fingerprint << 1) | static_cast<std::uint64_t>(b.input(0, t));
  CHECK(fingerprint == 16646410957706206042ull);
}

TEST_CASE("bad temporal parameters are rejected with the key named") {
  bem::parameters p;
  p.set("length", std::int64_t{0});
  CHECK_THROWS_WITH_AS(rtc_task{p}, doctest::Contains("'length'"), bem::parameter_error);
  bem::parameters q;
  q.set("length", std::string("long"));
  CHECK_THROWS_WITH_AS(txc_task{q}, doctest::Contains("expected an integer"), bem::parameter_error);
  bem::parameters u;
  u.set("lenght", std::int64_t{5});
  fsm_task f(u);
  CHECK_THROWS_WITH_AS(u.check_all_used(), doctest::Contains("'lenght': unknown parameter"), bem::parameter_error);
  // A test length listed twice would make two splits of one name, whose
  // records collide.
  CHECK_THROWS_WITH_AS(make<txc_task>(64, {64, 32, 64}), doctest::Contains("'test_lengths': lists 64 twice"),
                       bem::parameter_error);
}

namespace {
/// TXC with its first test split listed twice, as the duplicate lengths used to give.
struct twice_named_task : txc_task {
  using txc_task::txc_task;
  std::vector<split_info> splits() const {
    auto s = txc_task::splits();
    s.push_back(s.back());
    return s;
  }
};
}  // namespace

TEST_CASE("the task laws refuse two splits of one name") {
  bem::parameters p;
  const twice_named_task t(p);
  CHECK(check_task_laws(t, 1) == "law 6: two splits are named 'test/T=64'");
}
