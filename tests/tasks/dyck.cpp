// Dyck-1 (suite section 3.2): laws, reference solver, labels re-derived from
// the tokens, uniformity of the valid words, the perturbations, parameter
// errors and pinned data.
#include "reference_check.hpp"

#include <bem/harness/parameters.hpp>
#include <bem/prng.hpp>
#include <doctest/doctest.h>
#include <tasks/dyck.hpp>
#include <tasks/laws.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace bem::tasks;

namespace {
struct dyck_args {
  std::int64_t length = 0, depth = 0;
  std::vector<std::int64_t> test_lengths = {}, test_depths = {};
  double valid_fraction = -1;
  std::string labels = {};
};

dyck1_task make_dyck(const dyck_args& a = {}) {
  bem::parameters p;
  if (a.length) p.set("train_length", a.length);
  if (a.depth) p.set("train_depth", a.depth);
  if (!a.test_lengths.empty()) p.set("test_lengths", a.test_lengths);
  if (!a.test_depths.empty()) p.set("test_depths", a.test_depths);
  if (a.valid_fraction >= 0) p.set("valid_fraction", a.valid_fraction);
  if (!a.labels.empty()) p.set("labels", a.labels);
  dyck1_task t(p);
  p.check_all_used();
  return t;
}

/// What the tokens of one sequence say, computed here from the definitions.
struct word_facts {
  bool valid = true;            // never negative and final depth 0
  std::int64_t final_depth = 0;
  std::int64_t max_depth = 0;   // over all prefixes, the empty one included
  std::vector<int> online;      // prefix-valid after each token
};
word_facts facts(const std::int32_t* s, std::int32_t T) {
  word_facts f;
  bool ok = true;
  for (std::int32_t t = 0; t < T; ++t) {
    f.final_depth += s[t] == 0 ? 1 : -1;
    f.max_depth = std::max(f.max_depth, f.final_depth);
    ok = ok && f.final_depth >= 0;
    f.online.push_back(ok ? 1 : 0);
  }
  f.valid = ok && f.final_depth == 0;
  return f;
}
word_facts facts(const sequence_batch& b, std::int32_t i) { return facts(&b.inputs[b.index(i, 0)], b.length); }

std::int32_t bucket_by_hand(std::int64_t m) {
  if (m <= 0) return 0;
  if (m == 1) return 1;
  if (m == 2) return 2;
  if (m <= 4) return 3;
  if (m <= 8) return 4;
  if (m <= 16) return 5;
  if (m <= 32) return 6;
  if (m <= 64) return 7;
  return 8;
}


std::string as_text(const sequence_batch& b, std::int32_t i) {
  std::string s;
  for (std::int32_t t = 0; t < b.length; ++t) s += b.input(i, t) == 0 ? '(' : ')';
  return s;
}
}  // namespace

TEST_CASE("dyck1 obeys the task laws") {
  CHECK(check_task_laws(make_dyck(), 7) == "");
  CHECK(check_task_laws(make_dyck({.labels = "final"}), 7) == "");
  CHECK(check_task_laws(make_dyck({.length = 2, .depth = 1, .test_lengths = {2, 6}, .test_depths = {1, 5}}), 3, 64) ==
        "");
  CHECK(check_task_laws(make_dyck({.length = 10, .valid_fraction = 0.0, .labels = "final"}), 5) == "");
  CHECK(check_task_laws(make_dyck({.length = 10, .valid_fraction = 1.0}), 5) == "");
}

TEST_CASE("dyck1 splits and spec") {
  const auto task = make_dyck();
  const auto splits = task.splits();
  REQUIRE(splits.size() == 2 + 3 * 2);
  CHECK(splits[0].name == "train");
  CHECK(splits[0].length == 32);
  CHECK(splits[1].name == "validation");
  CHECK(splits[1].role == split_role::validation);
  const char* names[] = {"test/T=32,D=4", "test/T=32,D=8", "test/T=64,D=4", "test/T=64,D=8", "test/T=128,D=4",
                         "test/T=128,D=8"};
  for (int i = 0; i < 6; ++i) CHECK(splits[static_cast<std::size_t>(2 + i)].name == names[i]);
  CHECK(splits[5].length == 64);
  REQUIRE(splits[5].condition.size() == 2);
  CHECK(splits[5].condition[0].key == "length");
  CHECK(splits[5].condition[0].json_value == "64");
  CHECK(splits[5].condition[1].key == "depth");
  CHECK(splits[5].condition[1].json_value == "8");
  const auto spec = task.spec();
  CHECK(spec.output == output_kind::binary_per_position);
  CHECK(spec.token_names == std::vector<std::string>{"(", ")"});
  CHECK(spec.tag_name == "max_depth_bucket");
  CHECK(spec.tag_labels.size() == 9);
  CHECK(make_dyck({.labels = "final"}).spec().output == output_kind::binary_final);
  // Equal (T, D) share one sampling table.
  CHECK(&task.table(0) == &task.table(2));
}

TEST_CASE("dyck1 reference solver is exact") {
  CHECK(bem_test::reference_is_exact(make_dyck(), 3, 128));
  CHECK(bem_test::reference_is_exact(make_dyck({.labels = "final"}), 3, 128));
  CHECK(bem_test::reference_is_exact(make_dyck({.length = 2, .depth = 1, .test_lengths = {2, 4, 6}, .labels = "final"}),
                                     4, 128));
}

TEST_CASE("dyck1 labels and tags follow the definitions") {
  for (const char* mode : {"online", "final"}) {
    const auto task = make_dyck({.labels = mode});
    const bool final = std::string(mode) == "final";
    for (std::size_t split = 0; split < task.splits().size(); ++split) {
      sequence_batch b;
      task.generate(split, 13, 0, 200, b);
      for (std::int32_t i = 0; i < b.batch_size; ++i) {
        const auto f = facts(b, i);
        CHECK(b.lengths[static_cast<std::size_t>(i)] == b.length);
        CHECK(b.tags[static_cast<std::size_t>(i)] == bucket_by_hand(f.max_depth));
        for (std::int32_t t = 0; t < b.length; ++t) {
          if (final) {
            CHECK(b.scored(i, t) == (t == b.length - 1));
            if (t == b.length - 1) CHECK(b.target(i, t) == (f.valid ? 1 : 0));
          } else {
            CHECK(b.scored(i, t));
            CHECK(b.target(i, t) == f.online[static_cast<std::size_t>(t)]);
          }
        }
      }
    }
  }
}

TEST_CASE("dyck1 depth buckets") {
  const std::int64_t cases[][2] = {{0, 0},  {1, 1},  {2, 2},  {3, 3},  {4, 3},  {5, 4},   {8, 4},  {9, 5},
                                   {16, 5}, {17, 6}, {32, 6}, {33, 7}, {64, 7}, {65, 8}, {1000, 8}};
  for (const auto& c : cases) CHECK(dyck1_depth_bucket(c[0]) == c[1]);
}

TEST_CASE("dyck1 invalid words respect the depth bound too (BEM 3.2.2)") {
  // The training split's words have depth <= D_train and the test splits'
  // are truncated at D, whether valid or not; every kind of perturbation
  // occurs, missing_close included (it ends at depth 2).
  const auto task = make_dyck({.length = 32, .depth = 3, .test_lengths = {32, 64}, .test_depths = {2, 3, 100},
                               .valid_fraction = 0.0});
  for (std::size_t split = 0; split < task.splits().size(); ++split) {
    const auto info = task.splits()[split];
    CAPTURE(info.name);
    const std::int64_t D = std::stoll(info.condition[1].json_value);
    sequence_batch b;
    task.generate(split, 22, 0, 3000, b);
    int ends_at_two = 0;
    for (std::int32_t i = 0; i < b.batch_size; ++i) {
      const auto f = facts(b, i);
      CHECK_FALSE(f.valid);
      CHECK(f.max_depth <= D);
      ends_at_two += f.final_depth == 2;
    }
    CHECK(ends_at_two > 800);  // about a third are missing_close
  }
}

TEST_CASE("dyck1 valid words respect the depth bound and the valid fraction holds") {
  const auto task = make_dyck({.length = 32, .depth = 3, .test_lengths = {32, 64}, .test_depths = {2, 3, 100},
                               .valid_fraction = 0.3, .labels = "final"});
  for (std::size_t split = 0; split < task.splits().size(); ++split) {
    const auto info = task.splits()[split];
    const std::int64_t D = std::stoll(info.condition[1].json_value);
    sequence_batch b;
    task.generate(split, 21, 0, 4000, b);
    int valid = 0;
    std::int64_t deepest = 0;
    for (std::int32_t i = 0; i < b.batch_size; ++i) {
      const auto f = facts(b, i);
      CHECK(b.target(i, b.length - 1) == (f.valid ? 1 : 0));
      if (!f.valid) continue;
      ++valid;
      deepest = std::max(deepest, f.max_depth);
      CHECK(f.max_depth <= D);
    }
    // 0.3 +- 4 standard deviations of 4000 draws
    CHECK(valid > 1084);
    CHECK(valid < 1316);
    if (D <= 3) CHECK(deepest == D);  // the bound is reached, not just respected
  }
}

TEST_CASE("dyck1 valid words are uniform among the words within the bound") {
  // T = 6, D = 3: all 5 Dyck words; T = 8, D = 2: the 8 words of height <= 2 (of 14).
  struct scenario {
    std::int64_t T, D;
    std::size_t words;
    double chi2_critical;  // chi-square quantile 0.999 with words-1 degrees of freedom
  };
  for (const auto& sc : {scenario{6, 3, 5, 18.47}, scenario{8, 2, 8, 24.32}}) {
    const auto task = make_dyck({.length = sc.T, .depth = sc.D, .valid_fraction = 1.0});
    sequence_batch b;
    const int n = 20000;
    task.generate(0, 17, 0, n, b);
    std::map<std::string, int> counts;
    for (std::int32_t i = 0; i < n; ++i) {
      const auto f = facts(b, i);
      REQUIRE(f.valid);
      REQUIRE(f.max_depth <= sc.D);
      ++counts[as_text(b, i)];
    }
    CHECK(counts.size() == sc.words);
    const double expected = static_cast<double>(n) / static_cast<double>(sc.words);
    double chi2 = 0;
    for (const auto& [w, c] : counts) chi2 += (c - expected) * (c - expected) / expected;
    CHECK(chi2 < sc.chi2_critical);
  }
}

TEST_CASE("dyck1 completion counts") {
  // Unbounded: Catalan numbers. Height <= 2: 2^(n-1) words of n pairs.
  CHECK(dyck1_table(20, 100).weight(0, 0) == 16796.0);
  CHECK(dyck1_table(2, 1).weight(0, 0) == 1.0);
  CHECK(dyck1_table(8, 2).weight(0, 0) == 8.0);
  CHECK(dyck1_table(16, 2).weight(0, 0) == 128.0);
  CHECK(dyck1_table(8, 1).weight(0, 0) == 1.0);
  CHECK(dyck1_table(20, 100).depth_bound() == 10);
  // Long words: the rows are rescaled, sampling stays well defined and valid.
  for (auto [T, D] : {std::pair{4096, 4096}, std::pair{3000, 8}}) {
    const dyck1_table table(T, D);
    bem::xoshiro256ss rng(5);
    std::vector<std::int32_t> s(static_cast<std::size_t>(T));
    for (int rep = 0; rep < 3; ++rep) {
      table.sample(rng, s.data());
      const auto f = facts(s.data(), T);
      CHECK(f.valid);
      CHECK(f.max_depth <= D);
      CHECK(f.max_depth > 2);
    }
  }
}

TEST_CASE("dyck1 opening probabilities stay in [0, 1] where the counts leave the double range") {
  // At T = 4096 the counts of a row span more than 2^1074: 62,004 extreme
  // states had both continuations underflow to 0 and gave 0/0.
  const dyck1_table t(4096, 4096);
  std::int64_t states = 0, outside = 0;
  for (std::int32_t pos = 0; pos < t.length(); ++pos)
    for (std::int32_t d = pos % 2; d <= std::min(pos, t.depth_bound()) && d <= t.length() - pos; d += 2) {
      ++states;
      const double p = t.open_probability(pos, d);
      outside += !(p >= 0.0 && p <= 1.0);
    }
  CHECK(states == 2100224);
  CHECK(outside == 0);
}

TEST_CASE("every dyck1 perturbation makes the word invalid") {
  bem::xoshiro256ss rng(99);
  for (auto [T, D] : {std::pair{2, 1}, std::pair{4, 2}, std::pair{10, 10}, std::pair{32, 4}, std::pair{128, 3}}) {
    const dyck1_table table(T, D);
    std::vector<std::int32_t> word(static_cast<std::size_t>(T)), bad;
    for (int rep = 0; rep < 300; ++rep) {
      table.sample(rng, word.data());
      REQUIRE(facts(word.data(), T).valid);
      for (auto kind : {dyck1_perturbation::missing_close, dyck1_perturbation::extra_close,
                        dyck1_perturbation::misordered}) {
        bad = word;
        dyck1_perturb(bad.data(), T, D, kind, rng);
        const auto f = facts(bad.data(), T);
        CHECK_FALSE(f.valid);
        int changed = 0;
        for (std::size_t t = 0; t < bad.size(); ++t) changed += bad[t] != word[t];
        switch (kind) {
          case dyck1_perturbation::missing_close:  // one ")" became "(": never negative, ends at 2
            CHECK(changed == 1);
            CHECK(f.final_depth == 2);
            CHECK(f.online.back() == 1);
            CHECK(f.max_depth <= std::max(D, 2));  // within D, except D = 1 where the end is at 2
            break;
          case dyck1_perturbation::extra_close:  // one "(" became ")": ends at -2
            CHECK(changed == 1);
            CHECK(f.final_depth == -2);
            break;
          case dyck1_perturbation::misordered: {  // a top-level pair swapped: balanced, negative at its start
            CHECK(changed == 2);
            CHECK(f.final_depth == 0);
            std::size_t p = 0;
            while (bad[p] == word[p]) ++p;
            CHECK(bad[p] == 1);
            std::int64_t before = 0;
            for (std::size_t t = 0; t < p; ++t) before += word[t] == 0 ? 1 : -1;
            CHECK(before == 0);  // a top-level pair
            CHECK(f.online[p] == 0);
            break;
          }
        }
      }
    }
  }
}

TEST_CASE("dyck1 draws each perturbation about equally often") {
  // With valid_fraction = 0 the final depth tells the kind: 2, -2 or 0.
  const auto task = make_dyck({.length = 16, .valid_fraction = 0.0});
  sequence_batch b;
  task.generate(0, 4, 0, 6000, b);
  std::map<std::int64_t, int> by_final_depth;
  for (std::int32_t i = 0; i < b.batch_size; ++i) ++by_final_depth[facts(b, i).final_depth];
  CHECK(by_final_depth.size() == 3);
  for (auto d : {2, -2, 0}) {
    CHECK(by_final_depth[d] > 1850);
    CHECK(by_final_depth[d] < 2150);
  }
}

TEST_CASE("bad dyck1 parameters are rejected with the key named") {
  auto throws = [](const char* key, bem::parameter_value v, const char* text) {
    bem::parameters p;
    p.set(key, std::move(v));
    CHECK_THROWS_WITH_AS(dyck1_task{p}, doctest::Contains(text), bem::parameter_error);
  };
  throws("train_length", std::int64_t{31}, "'train_length': must be even");
  throws("train_length", std::int64_t{0}, "'train_length'");
  throws("train_depth", std::int64_t{0}, "'train_depth'");
  throws("test_lengths", std::vector<std::int64_t>{32, 7}, "'test_lengths'");
  throws("test_lengths", std::vector<std::int64_t>{32, 32}, "'test_lengths': lists 32 twice");
  throws("test_depths", std::vector<std::int64_t>{0}, "'test_depths'");
  throws("test_depths", std::vector<std::int64_t>{}, "'test_depths'");
  throws("test_depths", std::vector<std::int64_t>{4, 4}, "'test_depths': lists 4 twice");
  throws("valid_fraction", 1.5, "'valid_fraction'");
  throws("labels", std::string("both"), "'labels': must be one of {online, final}");
  bem::parameters big;
  big.set("test_lengths", std::vector<std::int64_t>{1 << 20});
  big.set("test_depths", std::vector<std::int64_t>{1 << 20});
  CHECK_THROWS_WITH_AS(dyck1_task{big}, doctest::Contains("'test_lengths'"), bem::parameter_error);
}

TEST_CASE("dyck1 data is pinned") {
  // Changing the generator must change the task's version.
  sequence_batch b;
  make_dyck().generate(0, 1, 0, 16, b);
  CHECK(bem_test::batch_fingerprint(b) == 5106993365158094196ull);
  make_dyck({.labels = "final"}).generate(5, 1, 100, 16, b);  // test/T=64,D=8, sequences 100..115
  CHECK(bem_test::batch_fingerprint(b) == 18381561787482436692ull);
}
