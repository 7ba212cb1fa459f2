// Shared by the task tests: accuracy of a model on a split, and the check
// that a task's reference solver is exact.
#pragma once

#include <bem/sequence_model.hpp>
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

}  // namespace bem_test
