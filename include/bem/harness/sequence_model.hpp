// The sequence_model concept: anything that can be trained and evaluated on a
// sequence task — a BEM instance, E88, Mamba2, a baseline.
//
// Minimal definition — a type `M` with
//   `void reset(const tasks::task_spec& spec, std::uint64_t seed)`
//        forget everything learned and initialise for a task; afterwards the
//        model depends only on (its parameters, spec, seed);
//   `void set_learning(bool enabled)`
//        learning on (training) or off (evaluation);
//   `double learn(const tasks::sequence_batch& batch)`
//        one learning step on a batch; returns the batch's training loss as a
//        mean per scored position, in nats (natural log: the records'
//        `final_train_loss`), or NaN when the model has no loss;
//   `void predict(const tasks::sequence_batch& batch, tasks::prediction& out)`
//        logits for every position: `out` arrives sized by
//        `prediction::reset_for(batch, spec)`;
//   `std::size_t parameter_count() const`.
//
// Laws:
//   1. Evaluation is pure: with learning off, predict does not change the
//      model — predicting the same batch twice gives identical logits. The
//      driver checks this on the first test batch of every run.
//   2. Causality: the logits at position t depend only on inputs 0..t of the
//      same sequence (and never on targets or mask).
//   3. Reproducibility: the same parameters, spec, seed and sequence of
//      learn() batches give the same logits.
//
// Models in the library: bem::majority_class_model (bem/harness/baselines.hpp), the
// reference solver of each task (`T::reference_model` in include/tasks).
//
// A pluggable_model is also constructible from `bem::parameters&` and names
// itself with `static constexpr const char* name, version, description`.
// A model may add `void report(F&& emit) const`, calling
// emit(std::string_view metric, double value, std::string_view unit) for
// extra figures (training epochs, state size...) that go into the records,
// and `void diagnose(const tasks::sequence_batch& batch, F&& emit)`, calling
// emit(std::string_view metric, std::span<const double> series,
// std::string_view unit) with series by position (series[t-1] for position t)
// computed on a held-out batch after training: the driver records them beside
// accuracy_by_position (the nn models send gradient flow and a linear probe of
// the hidden state, docs/nn.md). diagnose must not change the model.
// A model may also add `void keep_checkpoint()` and `void
// restore_checkpoint()`: remember what it has learned, and return to it
// (restore_checkpoint without a kept checkpoint throws). The driver keeps the
// epoch with the best validation score and restores it before the test
// splits (protocol key `restore_best`).
//
// Example (compiled by tests/api/docs_examples.cpp):
//
//     struct always_one_model {
//       void reset(const bem::tasks::task_spec&, std::uint64_t) {}
//       void set_learning(bool) {}
//       double learn(const bem::tasks::sequence_batch&) { return 0.0; }
//       void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction& out) {
//         for (float& l : out.logits) l = 4.0f;   // P(1) = 0.982
//       }
//       std::size_t parameter_count() const { return 0; }
//     };
//     static_assert(bem::sequence_model<always_one_model>);
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

BEM_NAMESPACE_BEGIN

namespace detail {
template <class M>
concept has_reset = requires(M& m, const tasks::task_spec& spec, std::uint64_t seed) {
  { m.reset(spec, seed) } -> std::same_as<void>;
};
template <class M>
concept has_set_learning = requires(M& m, bool on) {
  { m.set_learning(on) } -> std::same_as<void>;
};
template <class M>
concept has_learn = requires(M& m, const tasks::sequence_batch& b) {
  { m.learn(b) } -> std::convertible_to<double>;
};
template <class M>
concept has_predict = requires(M& m, const tasks::sequence_batch& b, tasks::prediction& out) {
  { m.predict(b, out) } -> std::same_as<void>;
};
template <class M>
concept has_parameter_count = requires(const M& m) {
  { m.parameter_count() } -> std::convertible_to<std::size_t>;
};
template <class M>
concept has_model_identity = requires {
  { M::name } -> std::convertible_to<const char*>;
  { M::version } -> std::convertible_to<const char*>;
  { M::description } -> std::convertible_to<const char*>;
};
struct metric_sink_archetype {
  void operator()(std::string_view, double, std::string_view) const {}
};
struct series_sink_archetype {
  void operator()(std::string_view, std::span<const double>, std::string_view) const {}
};
}  // namespace detail

template <class M>
concept sequence_model = detail::has_reset<M> && detail::has_set_learning<M> && detail::has_learn<M> &&
                         detail::has_predict<M> && detail::has_parameter_count<M>;

template <class M>
concept pluggable_model = sequence_model<M> && detail::has_model_identity<M> && std::constructible_from<M, parameters&>;

/// A model that reports extra figures through `report(emit)`.
template <class M>
concept reporting_model = sequence_model<M> && requires(const M& m, detail::metric_sink_archetype emit) {
  m.report(emit);
};

/// A model that computes diagnostic series on a held-out batch through
/// `diagnose(batch, emit)`.
template <class M>
concept diagnosing_model = sequence_model<M> && requires(M& m, const tasks::sequence_batch& b,
                                                         detail::series_sink_archetype emit) {
  m.diagnose(b, emit);
};

/// A model that can keep a checkpoint of what it has learned and return to
/// it: `keep_checkpoint()`, `restore_checkpoint()`.
template <class M>
concept checkpointing_model = sequence_model<M> && requires(M& m) {
  m.keep_checkpoint();
  m.restore_checkpoint();
};

/// A model that runs on a bem::machine and states its structural
/// configuration (§6.1) as a JSON object: `machine_configuration()`, valid
/// after reset.
template <class M>
concept machine_model = sequence_model<M> && requires(const M& m) {
  { m.machine_configuration() } -> std::convertible_to<std::string>;
};

/// Asserts each requirement of sequence_model on its own, so a type that
/// misses one is rejected with a message naming it. Returns true.
template <class M>
consteval bool assert_sequence_model() {
  static_assert(detail::has_reset<M>,
                "bem::sequence_model: the model needs `void reset(const bem::tasks::task_spec&, std::uint64_t seed)`");
  static_assert(detail::has_set_learning<M>, "bem::sequence_model: the model needs `void set_learning(bool)`");
  static_assert(detail::has_learn<M>,
                "bem::sequence_model: the model needs `double learn(const bem::tasks::sequence_batch&)`");
  static_assert(detail::has_predict<M>,
                "bem::sequence_model: the model needs `void predict(const bem::tasks::sequence_batch&, "
                "bem::tasks::prediction&)`");
  static_assert(detail::has_parameter_count<M>,
                "bem::sequence_model: the model needs `std::size_t parameter_count() const`");
  return true;
}

template <class M>
consteval bool assert_pluggable_model() {
  assert_sequence_model<M>();
  static_assert(detail::has_model_identity<M>,
                "bem::pluggable_model: the model needs `static constexpr const char* name, version, description`");
  static_assert(std::constructible_from<M, parameters&>,
                "bem::pluggable_model: the model needs a constructor taking `bem::parameters&`");
  return true;
}

BEM_NAMESPACE_END
