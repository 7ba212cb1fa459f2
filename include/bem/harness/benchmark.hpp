// Microbenchmarks: tasks that measure themselves.
//
// The BEM suite's section 2 (BIT-ALU throughput, ROUTE queries, expert
// evaluation, SAT/proof checking) defines measurements, not data
// distributions: there is no model to train. A microbenchmark runs the whole
// measurement for a seed and sends each number to a sink as soon as it
// exists; the driver turns each into a result record.
//
// ## microbenchmark
// Minimal definition — a type `B` with
//   `void run(std::uint64_t seed, benchmark_sink& sink)`.
// Laws:
//   1. Every non-timing record is a deterministic function of (parameters,
//      seed): checksums, recalls, counts. Timing records say `timing = true`.
//   2. Work that is timed is live: its result reaches a checksum that is
//      reported, so the compiler cannot delete it.
//   3. Cycle figures state how they were obtained in their unit
//      ("cycles (estimated via TSC)" or "cycles (measured, perf_event_open)";
//      see bem/platform/cycles.hpp).
// ## pluggable_benchmark
// A microbenchmark constructible from `bem::parameters&` with
// `static constexpr const char* name, version, description`; export it with
// BEM_BENCHMARKS(...) in BEM_PLUGIN (bem/plugin/adapter.hpp).
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/version.hpp>
#include <metrics/metric_value.hpp>
#include <tasks/batch.hpp>

#include <cctype>
#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

BEM_NAMESPACE_BEGIN

/// One measurement of a microbenchmark.
struct benchmark_record {
  std::string split;                              ///< the measured configuration, e.g. "W=256"
  std::vector<tasks::condition_field> condition;  ///< what distinguishes it, e.g. {"W", "256"}
  metrics::metric_value value;                    ///< metric, value, unit, direction, interval, n
  bool timing = false;                            ///< the value measures time

  /// A record of one scalar (metrics::scalar_metric's fields) with its
  /// breakdown: what every benchmark's emitter builds.
  static benchmark_record scalar(std::string split, std::vector<tasks::condition_field> condition,
                                 std::string metric, double value, std::string unit, metrics::better direction,
                                 std::int64_t n, std::string n_unit, bool timing = false,
                                 std::vector<std::pair<std::string, std::string>> breakdown = {}) {
    benchmark_record r;
    r.split = std::move(split);
    r.condition = std::move(condition);
    r.value = metrics::scalar_metric(std::move(metric), value, std::move(unit), direction, n, std::move(n_unit));
    r.value.breakdown = std::move(breakdown);
    r.timing = timing;
    return r;
  }
};

/// What a run gives a benchmark beyond its seed: the model a model-evaluating
/// benchmark is asked to evaluate, and a folder for its artefacts.
struct benchmark_context {
  std::uint64_t seed = 0;
  std::string model = "none";         ///< the suite's model name
  std::string model_parameters_toml;  ///< the run's [run.model_params]
  std::string artifact_dir;           ///< an existing folder of this run's own, or empty
};

/// Where a microbenchmark sends its records.
class benchmark_sink {
 public:
  virtual ~benchmark_sink() = default;
  virtual void emit(const benchmark_record& record) = 0;
};

namespace detail {
template <class B>
concept has_run = requires(B& b, std::uint64_t seed, benchmark_sink& sink) {
  { b.run(seed, sink) } -> std::same_as<void>;
};
template <class B>
concept has_context_run = requires(B& b, const benchmark_context& context, benchmark_sink& sink) {
  { b.run(context, sink) } -> std::same_as<void>;
};
template <class B>
concept has_benchmark_identity = requires {
  { B::name } -> std::convertible_to<const char*>;
  { B::version } -> std::convertible_to<const char*>;
  { B::description } -> std::convertible_to<const char*>;
};
}  // namespace detail

template <class B>
concept microbenchmark = detail::has_run<B> || detail::has_context_run<B>;

/// A benchmark that evaluates a model of its own kind (code models, say):
/// it runs from the whole context, so the suite's `model` reaches it.
template <class B>
concept model_evaluating_benchmark = detail::has_context_run<B>;

template <class B>
concept pluggable_benchmark =
    microbenchmark<B> && detail::has_benchmark_identity<B> && std::constructible_from<B, parameters&>;

template <class B>
consteval bool assert_pluggable_benchmark() {
  static_assert(detail::has_run<B> || detail::has_context_run<B>,
                "bem::microbenchmark: the benchmark needs `void run(std::uint64_t seed, bem::benchmark_sink&)` "
                "(or `void run(const bem::benchmark_context&, bem::benchmark_sink&)`)");
  static_assert(detail::has_benchmark_identity<B>,
                "bem::pluggable_benchmark: the benchmark needs `static constexpr const char* name, version, "
                "description`");
  static_assert(std::constructible_from<B, parameters&>,
                "bem::pluggable_benchmark: the benchmark needs a constructor taking `bem::parameters&`");
  return true;
}

/// Records that a size parameter is below what the specification asks for, so
/// a short run (the quick suite's) is never mistaken for a conforming one:
/// metric "<parameter, lower case>_below_spec" with the value used, in `unit`
/// (what the parameter counts: "iterations", "queries", ...), and a note.
inline void emit_below_spec(benchmark_sink& sink, const std::string& parameter, std::int64_t used,
                            const std::string& unit, std::int64_t required, const std::string& section) {
  benchmark_record r;
  r.split = "all";
  r.value.metric = parameter + "_below_spec";
  for (char& c : r.value.metric) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  r.value.value = static_cast<double>(used);
  r.value.unit = unit;
  r.value.breakdown = {{"note", parameter + " is below the " + std::to_string(required) + " that " + section +
                                    " requires: a short run, not a conforming measurement"}};
  sink.emit(r);
}

BEM_NAMESPACE_END
