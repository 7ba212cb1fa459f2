// The task concepts.
//
// ## sequence_task
// A sequence task is a deterministic function of (parameters, seed) that
// yields batches of (inputs, targets, mask) with a declared input vocabulary
// and output kind.
//
// Minimal definition — a type `T` with
//   `task_spec spec() const`                      vocabulary, output kind, tags;
//   `std::vector<split_info> splits() const`      the training distribution and
//                                                 each test condition;
//   `void generate(std::size_t split, std::uint64_t seed, std::int64_t first,
//                  std::int32_t count, sequence_batch& out) const`
//                                                 sequences first .. first+count-1
//                                                 of a split, drawn with `seed`.
//
// Laws (checked for every task of the library by its tests in tests/tasks through
// `bem::tasks::check_task_laws`):
//   1. Determinism: equal arguments give byte-identical batches, on every
//      machine (all randomness comes from bem/prng.hpp).
//   2. Sequence independence: sequence i of a split is the same whatever batch
//      it is generated in (`first`, `count` only select which ones).
//   3. Shape: `out.batch_size == count`, `out.length == splits()[split].length`;
//      tokens lie in [0, vocab_size); 1 <= lengths[b] <= length; only real
//      positions are masked; binary targets are 0 or 1, class targets lie in
//      [0, num_classes).
//   4. Final-output tasks (binary_final, class_final) mask exactly one
//      position per sequence: lengths[b] - 1.
//   5. Tags lie in [0, tag_labels.size()) when the task declares a tag.
//   6. At least one split has role `train` and one has role `test`; no two
//      splits share a name (records are keyed by it).
//
// Models in the library: bem::tasks::rtc_task, txc_task, fsm_task
// (temporal.hpp), parity_task, majority_task (parity.hpp), dyck1_task
// (dyck.hpp), kv_retrieval_task (kv_retrieval.hpp).
//
// Example (compiled by tests/api/docs_examples.cpp):
//
//     struct always_one_task {                 // y_t = 1 for every t
//       bem::tasks::task_spec spec() const {
//         return {};  // the defaults: tokens {0, 1}, a binary label per position
//       }
//       std::vector<bem::tasks::split_info> splits() const {
//         return {{"train", bem::tasks::split_role::train, 8, {}},
//                 {"test", bem::tasks::split_role::test, 8, {}}};
//       }
//       void generate(std::size_t, std::uint64_t seed, std::int64_t first,
//                     std::int32_t count, bem::tasks::sequence_batch& out) const {
//         out.reset(count, 8);
//         for (std::int32_t b = 0; b < count; ++b) {
//           bem::xoshiro256ss rng(bem::derive_seed(seed, 0, first + b));
//           for (std::int32_t t = 0; t < 8; ++t) {
//             out.input(b, t) = rng.bit();
//             out.target(b, t) = 1;
//             out.scored(b, t) = 1;
//           }
//         }
//       }
//     };
//     static_assert(bem::tasks::sequence_task<always_one_task>);
//
// ## pluggable_task
// A sequence_task that a plugin can create from parameters: it is
// constructible from `bem::parameters&` (throwing bem::parameter_error for bad
// values) and names itself with `static constexpr const char* name, version,
// description`. The version changes whenever the distribution changes.
//
// ## solvable_task
// A task with an exact reference solver: `typename T::reference_model`, a
// bem::pluggable_model that must score 1.0 (bem/plugin/adapter.hpp). bem-bench
// creates it from the run's model parameters, never from the task's: it knows
// the task only through the spec given to `reset` and the input tokens.
#pragma once

#include <bem/harness/parameters.hpp>
#include <bem/version.hpp>
#include <tasks/batch.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <vector>

BEM_NAMESPACE_BEGIN
namespace tasks {

namespace detail {
template <class T>
concept has_spec = requires(const T& t) {
  { t.spec() } -> std::convertible_to<task_spec>;
};
template <class T>
concept has_splits = requires(const T& t) {
  { t.splits() } -> std::convertible_to<std::vector<split_info>>;
};
template <class T>
concept has_generate = requires(const T& t, std::size_t split, std::uint64_t seed, std::int64_t first,
                                std::int32_t count, sequence_batch& out) {
  { t.generate(split, seed, first, count, out) } -> std::same_as<void>;
};
template <class T>
concept has_identity = requires {
  { T::name } -> std::convertible_to<const char*>;
  { T::version } -> std::convertible_to<const char*>;
  { T::description } -> std::convertible_to<const char*>;
};
}  // namespace detail

template <class T>
concept sequence_task = detail::has_spec<T> && detail::has_splits<T> && detail::has_generate<T>;

template <class T>
concept pluggable_task = sequence_task<T> && detail::has_identity<T> && std::constructible_from<T, parameters&>;

/// Asserts each requirement of pluggable_task on its own, so a type that
/// misses one is rejected with a message naming it. Returns true.
template <class T>
consteval bool assert_pluggable_task() {
  static_assert(detail::has_spec<T>, "bem::tasks::sequence_task: the task needs `task_spec spec() const`");
  static_assert(detail::has_splits<T>, "bem::tasks::sequence_task: the task needs `std::vector<split_info> splits() const`");
  static_assert(detail::has_generate<T>,
                "bem::tasks::sequence_task: the task needs `void generate(std::size_t split, std::uint64_t seed, "
                "std::int64_t first, std::int32_t count, sequence_batch& out) const`");
  static_assert(detail::has_identity<T>,
                "bem::tasks::pluggable_task: the task needs `static constexpr const char* name, version, description`");
  static_assert(std::constructible_from<T, parameters&>,
                "bem::tasks::pluggable_task: the task needs a constructor taking `bem::parameters&`");
  return true;
}

}  // namespace tasks
BEM_NAMESPACE_END
