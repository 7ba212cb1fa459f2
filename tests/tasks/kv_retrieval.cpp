// Key-value retrieval (suite section 3.3): laws, reference solver, labels
// re-derived by parsing the tokens, query-position regimes, missing queries,
// parameter errors and pinned data.
#include "reference_check.hpp"

#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>
#include <tasks/kv_retrieval.hpp>
#include <tasks/laws.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace bem::tasks;

namespace {
struct kv_args {
  std::int64_t pairs = 0, n_keys = 0, n_values = 0;
  double missing = -1;
  std::vector<std::int64_t> test_pairs = {};
};

kv_retrieval_task make_kv(const kv_args& a = {}) {
  bem::parameters p;
  if (a.pairs) p.set("pairs", a.pairs);
  if (a.n_keys) p.set("n_keys", a.n_keys);
  if (a.n_values) p.set("n_values", a.n_values);
  if (a.missing >= 0) p.set("missing_fraction", a.missing);
  if (!a.test_pairs.empty()) p.set("test_pairs", a.test_pairs);
  kv_retrieval_task t(p);
  p.check_all_used();
  return t;
}

/// One sequence parsed back from its tokens.
struct parsed {
  bool well_formed = true;
  std::vector<std::int32_t> keys, values;
  std::int32_t query = -1;
  std::int32_t index = -1;  // pair index of the query, -1 when absent
};
parsed parse(const sequence_batch& b, std::int32_t i, std::int32_t n_keys, std::int32_t n_values) {
  parsed p;
  const std::int32_t L = b.length;
  const std::int32_t K = (L - 4) / 2;
  auto is_key = [&](std::int32_t tok) { return tok >= 3 && tok < 3 + n_keys; };
  auto is_value = [&](std::int32_t tok) { return tok >= 3 + n_keys && tok < 3 + n_keys + n_values; };
  p.well_formed = b.input(i, 0) == 0 && b.input(i, L - 3) == 1 && b.input(i, L - 1) == 2 && is_key(b.input(i, L - 2));
  for (std::int32_t k = 0; k < K; ++k) {
    p.well_formed = p.well_formed && is_key(b.input(i, 1 + 2 * k)) && is_value(b.input(i, 2 + 2 * k));
    p.keys.push_back(b.input(i, 1 + 2 * k) - 3);
    p.values.push_back(b.input(i, 2 + 2 * k) - 3 - n_keys);
  }
  p.query = b.input(i, L - 2) - 3;
  for (std::int32_t k = 0; k < K; ++k)
    if (p.keys[static_cast<std::size_t>(k)] == p.query) p.index = k;
  return p;
}

}  // namespace

TEST_CASE("kv_retrieval obeys the task laws") {
  CHECK(check_task_laws(make_kv(), 7) == "");
  CHECK(check_task_laws(make_kv({.missing = 0.3}), 7) == "");
  CHECK(check_task_laws(make_kv({.pairs = 1, .n_keys = 3, .n_values = 1, .test_pairs = {3}}), 5, 32) == "");
  CHECK(check_task_laws(make_kv({.pairs = 5, .n_keys = 6, .n_values = 2, .missing = 1.0, .test_pairs = {3, 4, 5}}), 5) ==
        "");
}

TEST_CASE("kv_retrieval splits and spec") {
  const auto task = make_kv();
  const auto spec = task.spec();
  CHECK(spec.vocab_size == 3 + 64 + 64);
  CHECK(spec.output == output_kind::class_final);
  CHECK(spec.num_classes == 65);
  CHECK(spec.logits_per_position() == 65);
  REQUIRE(spec.token_names.size() == 131);
  CHECK(spec.token_names[0] == "[START]");
  CHECK(spec.token_names[3] == "k0");
  CHECK(spec.token_names[67] == "v0");
  CHECK(spec.tag_name == "query_position");
  CHECK(spec.tag_labels == std::vector<std::string>{"early", "middle", "late", "missing"});
  const auto splits = task.splits();
  REQUIRE(splits.size() == 2 + 2 * 4);
  CHECK(splits[0].name == "train");
  CHECK(splits[0].length == 20);
  CHECK(splits[1].name == "validation");
  const char* names[] = {"test/K=8,pos=uniform",  "test/K=8,pos=early",  "test/K=8,pos=middle",  "test/K=8,pos=late",
                         "test/K=16,pos=uniform", "test/K=16,pos=early", "test/K=16,pos=middle", "test/K=16,pos=late"};
  for (int i = 0; i < 8; ++i) CHECK(splits[static_cast<std::size_t>(2 + i)].name == names[i]);
  CHECK(splits[9].length == 36);
  REQUIRE(splits[9].condition.size() == 3);
  CHECK(splits[9].condition[0].key == "length");
  CHECK(splits[9].condition[1].key == "pairs");
  CHECK(splits[9].condition[1].json_value == "16");
  CHECK(splits[9].condition[2].key == "position");
  CHECK(splits[9].condition[2].json_value == "\"late\"");
}

TEST_CASE("kv_retrieval reference solver is exact") {
  CHECK(bem_test::reference_is_exact(make_kv(), 3, 256));
  CHECK(bem_test::reference_is_exact(make_kv({.missing = 0.5}), 3, 256));
  CHECK(bem_test::reference_is_exact(make_kv({.pairs = 3, .n_keys = 4, .n_values = 2, .missing = 0.5, .test_pairs = {3}}),
                                     8, 256));
}

TEST_CASE("kv_retrieval labels, tags and regimes follow the definitions") {
  const std::int32_t n_keys = 40, n_values = 7;
  const auto task = make_kv({.pairs = 6, .n_keys = n_keys, .n_values = n_values, .missing = 0.2, .test_pairs = {6, 13}});
  const auto splits = task.splits();
  for (std::size_t split = 0; split < splits.size(); ++split) {
    const auto& info = splits[split];
    const std::string regime = info.condition[2].json_value;
    sequence_batch b;
    const int n = 3000;
    task.generate(split, 23, 0, n, b);
    const std::int32_t K = (b.length - 4) / 2;
    int missing = 0;
    std::map<std::int32_t, int> by_index;
    for (std::int32_t i = 0; i < n; ++i) {
      const auto p = parse(b, i, n_keys, n_values);
      REQUIRE(p.well_formed);
      CHECK(b.lengths[static_cast<std::size_t>(i)] == b.length);
      CHECK(std::set<std::int32_t>(p.keys.begin(), p.keys.end()).size() == static_cast<std::size_t>(K));
      const std::int32_t tag = b.tags[static_cast<std::size_t>(i)];
      const std::int32_t y = b.target(i, b.length - 1);
      if (p.index < 0) {
        ++missing;
        CHECK(y == n_values);  // NULL
        CHECK(tag == 3);
        continue;
      }
      ++by_index[p.index];
      CHECK(y == p.values[static_cast<std::size_t>(p.index)]);
      const std::int32_t third = 3 * p.index / K;
      CHECK(tag == third);
      if (regime == "\"early\"") CHECK(third == 0);
      if (regime == "\"middle\"") CHECK(third == 1);
      if (regime == "\"late\"") CHECK(third == 2);
    }
    CHECK(missing > 500);  // 0.2 of 3000, +- 4.6 standard deviations
    CHECK(missing < 700);
    // j is uniform within its range: every allowed index appears about equally often.
    const double expected = static_cast<double>(n - missing) / static_cast<double>(by_index.size());
    for (const auto& [j, c] : by_index) {
      CHECK(c > 0.75 * expected);
      CHECK(c < 1.25 * expected);
    }
    if (regime == "\"uniform\"") CHECK(by_index.size() == static_cast<std::size_t>(K));
  }
  // The thirds of K = 13: early [0, 5), middle [5, 9), late [9, 13).
  for (std::size_t split = 7; split < 10; ++split) {
    sequence_batch b;
    task.generate(split, 29, 0, 2000, b);
    std::set<std::int32_t> seen;
    for (std::int32_t i = 0; i < b.batch_size; ++i) {
      const auto p = parse(b, i, n_keys, n_values);
      if (p.index >= 0) seen.insert(p.index);
    }
    const std::set<std::int32_t> want[] = {{0, 1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    CHECK(seen == want[split - 7]);
  }
}

TEST_CASE("kv_retrieval keys are distinct and uniform, values uniform") {
  const auto task = make_kv({.pairs = 8, .n_keys = 16, .n_values = 4});
  sequence_batch b;
  const int n = 8000;
  task.generate(0, 31, 0, n, b);
  std::vector<int> key_count(16, 0), value_count(4, 0), first_key(16, 0);
  for (std::int32_t i = 0; i < n; ++i) {
    const auto p = parse(b, i, 16, 4);
    for (auto k : p.keys) ++key_count[static_cast<std::size_t>(k)];
    for (auto v : p.values) ++value_count[static_cast<std::size_t>(v)];
    ++first_key[static_cast<std::size_t>(p.keys[0])];
  }
  for (auto c : key_count) CHECK(std::abs(c - n / 2) < 250);       // each key in half the sequences
  for (auto c : first_key) CHECK(std::abs(c - n / 16) < 120);      // and in every slot equally often
  for (auto c : value_count) CHECK(std::abs(c - n * 8 / 4) < 300);
}

TEST_CASE("the kv_retrieval reference solver answers from the tokens alone") {
  // A hand-written sequence: [START] k2 v1 k0 v3 [SEP] k0 [END] with 4 keys and 5 values.
  const auto task = make_kv({.pairs = 2, .n_keys = 4, .n_values = 5, .test_pairs = {3}});
  sequence_batch b;
  b.reset(2, 8);
  const std::int32_t seq[2][8] = {{0, 3 + 2, 7 + 1, 3 + 0, 7 + 3, 1, 3 + 0, 2}, {0, 3 + 2, 7 + 1, 3 + 0, 7 + 3, 1, 3 + 1, 2}};
  for (std::int32_t i = 0; i < 2; ++i)
    for (std::int32_t t = 0; t < 8; ++t) b.input(i, t) = seq[i][t];
  kv_retrieval_reference ref;
  ref.reset(task.spec(), 0);
  prediction out;
  out.reset_for(b, task.spec());
  REQUIRE(out.width == 6);
  ref.predict(b, out);
  for (std::int32_t c = 0; c < 6; ++c) {
    CHECK(out.at(0, 7)[c] == (c == 3 ? certain_logit : -certain_logit));
    CHECK(out.at(1, 7)[c] == (c == 5 ? certain_logit : -certain_logit));  // k1 absent: NULL
  }
}

TEST_CASE("bad kv_retrieval parameters are rejected with the key named") {
  auto throws = [](kv_args a, const char* text) {
    bem::parameters p;
    if (a.pairs) p.set("pairs", a.pairs);
    if (a.n_keys) p.set("n_keys", a.n_keys);
    if (a.n_values) p.set("n_values", a.n_values);
    if (a.missing != -1) p.set("missing_fraction", a.missing);
    if (!a.test_pairs.empty()) p.set("test_pairs", a.test_pairs);
    CHECK_THROWS_WITH_AS(kv_retrieval_task{p}, doctest::Contains(text), bem::parameter_error);
  };
  throws({.pairs = -3}, "'pairs'");
  throws({.n_values = -1}, "'n_values'");
  throws({.missing = 1.5}, "'missing_fraction'");
  throws({.missing = -0.5}, "'missing_fraction'");
  throws({.test_pairs = {8, 2}}, "'test_pairs'");
  throws({.test_pairs = {8, 8}}, "'test_pairs': lists 8 twice");
  throws({.pairs = 8, .n_keys = 15}, "'n_keys': must be at least the largest pair count 16");
  throws({.pairs = 8, .n_keys = 16, .missing = 0.1}, "'n_keys': must exceed");
  // the default [1, 2] has no late third: the error names the key that was set
  throws({.pairs = 1}, "'pairs': the default test_pairs [K, 2K] need K >= 3");
  bem::parameters q;
  q.set("n_keys", 12.5);
  CHECK_THROWS_WITH_AS(kv_retrieval_task{q}, doctest::Contains("'n_keys': expected an integer"), bem::parameter_error);
  // n_keys equal to the largest K is fine without missing queries.
  bem::parameters ok;
  ok.set("n_keys", std::int64_t{16});
  CHECK_NOTHROW(kv_retrieval_task{ok});
}

TEST_CASE("kv_retrieval data is pinned") {
  // Changing the generator must change the task's version.
  sequence_batch b;
  make_kv().generate(0, 1, 0, 16, b);
  CHECK(bem_test::batch_fingerprint(b) == 13996768668360156130ull);
  make_kv({.missing = 0.25}).generate(8, 1, 100, 16, b);  // test/K=16,pos=middle, sequences 100..115
  CHECK(bem_test::batch_fingerprint(b) == 11170997740965202568ull);
}
