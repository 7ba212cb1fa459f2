// Executable form of the sequence_task laws (tasks/concepts.hpp): returns the
// first violated law as text, or "" when the task obeys all of them on the
// sampled sequences. Tests run it on every task of the library; authors of new
// tasks should run it on theirs.
#pragma once

#include <bem/version.hpp>
#include <tasks/batch.hpp>
#include <tasks/concepts.hpp>

#include <cstdint>
#include <string>

BEM_NAMESPACE_BEGIN
namespace tasks {

namespace detail {
inline bool same_sequence(const sequence_batch& a, std::int32_t ia, const sequence_batch& b, std::int32_t ib) {
  if (a.length != b.length || a.lengths[ia] != b.lengths[ib] || a.tags[ia] != b.tags[ib]) return false;
  for (std::int32_t t = 0; t < a.length; ++t)
    if (a.input(ia, t) != b.input(ib, t) || a.target(ia, t) != b.target(ib, t) || a.scored(ia, t) != b.scored(ib, t))
      return false;
  return true;
}
}  // namespace detail

/// Checks laws 1-6 on `count` sequences of every split under `seed`.
template <sequence_task T>
std::string check_task_laws(const T& task, std::uint64_t seed = 1, std::int32_t count = 16) {
  const task_spec spec = task.spec();
  const auto splits = task.splits();
  bool has_train = false, has_test = false;
  for (const auto& s : splits) {
    has_train = has_train || s.role == split_role::train;
    has_test = has_test || s.role == split_role::test;
  }
  if (!has_train || !has_test) return "law 6: needs a train split and a test split";
  for (std::size_t i = 0; i < splits.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (splits[i].name == splits[j].name) return "law 6: two splits are named '" + splits[i].name + "'";
  const bool final_output = spec.output != output_kind::binary_per_position;
  for (std::size_t si = 0; si < splits.size(); ++si) {
    const auto& split = splits[si];
    const std::string where = "split '" + split.name + "': ";
    sequence_batch a, b, single;
    task.generate(si, seed, 0, count, a);
    task.generate(si, seed, 0, count, b);
    if (a.inputs != b.inputs || a.targets != b.targets || a.mask != b.mask || a.lengths != b.lengths || a.tags != b.tags)
      return where + "law 1: two identical calls gave different batches";
    if (a.batch_size != count || a.length != split.length) return where + "law 3: batch shape differs from the split";
    for (std::int32_t i = 0; i < count; ++i) {
      task.generate(si, seed, i, 1, single);
      if (!detail::same_sequence(a, i, single, 0))
        return where + "law 2: sequence " + std::to_string(i) + " differs when generated alone";
      const std::int32_t len = a.lengths[static_cast<std::size_t>(i)];
      if (len < 1 || len > a.length) return where + "law 3: lengths out of range";
      int scored = 0;
      for (std::int32_t t = 0; t < a.length; ++t) {
        const auto tok = a.input(i, t);
        if (tok < 0 || tok >= spec.vocab_size) return where + "law 3: token outside the vocabulary";
        if (!a.scored(i, t)) continue;
        ++scored;
        if (t >= len) return where + "law 3: padding position is scored";
        const auto y = a.target(i, t);
        if (y < 0 || y >= spec.num_classes) return where + "law 3: target outside [0, num_classes)";
      }
      if (final_output && (scored != 1 || !a.scored(i, len - 1)))
        return where + "law 4: a final-output task must score exactly position lengths[b]-1";
      if (!spec.tag_name.empty()) {
        const auto tag = a.tags[static_cast<std::size_t>(i)];
        if (tag < 0 || tag >= static_cast<std::int32_t>(spec.tag_labels.size()))
          return where + "law 5: tag outside the declared labels";
      }
    }
  }
  return {};
}

}  // namespace tasks
BEM_NAMESPACE_END
