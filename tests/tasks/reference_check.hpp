// Shared by the task tests: accuracy of a model on a split, and the check
// that a task's reference solver is exact.
#pragma once

#include <bem/harness/sequence_model.hpp>
#include <tasks/batch.hpp>
#include <tasks/concepts.hpp>

#include <algorithm>
#include <cstdint>

namespace bem_test {

/// Fraction of scored positions a model gets right on `count` sequences.
template <class Task, class Model>
double accuracy(const Task& task, Model& model, std::size_t split, std::uint64_t seed, std::int32_t count) {
  const auto spec = task.spec();
  bem::tasks::sequence_batch batch;
  bem::tasks::prediction out;
  task.generate(split, seed, 0, count, batch);
  out.reset_for(batch, spec);
  model.predict(batch, out);
  std::int64_t right = 0, total = 0;
  for (std::int32_t b = 0; b < batch.batch_size; ++b)
    for (std::int32_t t = 0; t < batch.length; ++t) {
      if (!batch.scored(b, t)) continue;
      const float* l = out.at(b, t);
      const int guess = spec.output == bem::tasks::output_kind::class_final
                            ? static_cast<int>(std::max_element(l, l + out.width) - l)
                            : (l[0] > 0 ? 1 : 0);
      right += guess == batch.target(b, t);
      ++total;
    }
  return total ? static_cast<double>(right) / static_cast<double>(total) : 0.0;
}

/// The reference model of `task` scores 1.0 on every split.
template <class Task>
bool reference_is_exact(const Task& task, std::uint64_t seed, std::int32_t count) {
  typename Task::reference_model ref;
  ref.reset(task.spec(), seed);
  ref.set_learning(false);
  const auto splits = task.splits();
  for (std::size_t s = 0; s < splits.size(); ++s)
    if (accuracy(task, ref, s, seed, count) != 1.0) return false;
  return true;
}

/// FNV-1a over every field of a batch: pins generated data in the tests.
inline std::uint64_t batch_fingerprint(const bem::tasks::sequence_batch& b) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](std::int64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= static_cast<std::uint64_t>(v >> (8 * i)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  };
  mix(b.batch_size);
  mix(b.length);
  for (auto v : b.inputs) mix(v);
  for (auto v : b.targets) mix(v);
  for (auto v : b.mask) mix(v);
  for (auto v : b.lengths) mix(v);
  for (auto v : b.tags) mix(v);
  return h;
}

}  // namespace bem_test
