// What bem/harness/benchmark.hpp gives every microbenchmark: the concepts that admit
// it to a plugin, and the record that marks a run below the spec's size.
#include <bem/harness/benchmark.hpp>
#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {
struct collecting_sink final : bem::benchmark_sink {
  std::vector<bem::benchmark_record> records;
  void emit(const bem::benchmark_record& r) override { records.push_back(r); }
};

struct seed_benchmark {
  static constexpr const char* name = "seed_only";
  static constexpr const char* version = "1";
  static constexpr const char* description = "runs from a seed";
  explicit seed_benchmark(bem::parameters&) {}
  void run(std::uint64_t, bem::benchmark_sink&) {}
};
struct context_benchmark {
  static constexpr const char* name = "with_context";
  static constexpr const char* version = "1";
  static constexpr const char* description = "runs from the whole context";
  explicit context_benchmark(bem::parameters&) {}
  void run(const bem::benchmark_context&, bem::benchmark_sink&) {}
};
struct nameless_benchmark {
  explicit nameless_benchmark(bem::parameters&) {}
  void run(std::uint64_t, bem::benchmark_sink&) {}
};
struct returns_a_value {
  int run(std::uint64_t, bem::benchmark_sink&) { return 0; }
};
}  // namespace

static_assert(bem::pluggable_benchmark<seed_benchmark>);
static_assert(!bem::model_evaluating_benchmark<seed_benchmark>);
static_assert(bem::pluggable_benchmark<context_benchmark>);
static_assert(bem::model_evaluating_benchmark<context_benchmark>);
static_assert(bem::microbenchmark<nameless_benchmark> && !bem::pluggable_benchmark<nameless_benchmark>);
static_assert(!bem::microbenchmark<returns_a_value>);

TEST_CASE("emit_below_spec: one record, lower-case metric, the value used and why it is short") {
  collecting_sink sink;
  bem::emit_below_spec(sink, "L_loop", 20000, "iterations", 10000000, "BEM 2.1");
  REQUIRE(sink.records.size() == 1);
  const auto& r = sink.records[0];
  CHECK(r.split == "all");
  CHECK_FALSE(r.timing);
  CHECK(r.value.metric == "l_loop_below_spec");
  CHECK(r.value.value == 20000.0);
  CHECK(r.value.unit == "iterations");
  REQUIRE(r.value.breakdown.size() == 1);
  CHECK(r.value.breakdown[0].first == "note");
  CHECK(r.value.breakdown[0].second ==
        "L_loop is below the 10000000 that BEM 2.1 requires: a short run, not a conforming measurement");
}
