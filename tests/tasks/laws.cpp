// The law checker itself: a task that breaks one law at a time must be
// refused with that law named, and the same task without the flaw accepted.
// Authors of task plugins rely on check_task_laws to find their mistakes.
#include <doctest/doctest.h>
#include <tasks/laws.hpp>
#include <tasks/splits.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace bem::tasks;

namespace {

enum class flaw {
  none,
  nondeterministic,     // law 1: inputs
  unstable_targets,     // law 1: targets
  depends_on_batch,     // law 2
  wrong_length,         // law 3: batch shape
  no_real_tokens,       // law 3: lengths
  token_outside,        // law 3: vocabulary
  padding_scored,       // law 3: padding
  target_outside,       // law 3: targets
  final_scores_two,     // law 4
  final_scores_early,   // law 4
  tag_outside,          // law 5
  no_test_split,        // law 6
};

/// Sequences of 8 positions, 6 of them real; token t of sequence i is
/// (i + t) % 2. Per-position tasks score every real position, final-output
/// ones the last real position. Each flaw breaks exactly one law.
struct flawed_task {
  flaw f = flaw::none;
  bool final = false;
  mutable int calls = 0;

  /// A final-output task: asked for, or needed by a law-4 flaw.
  bool final_output() const { return final || f == flaw::final_scores_two || f == flaw::final_scores_early; }

  task_spec spec() const {
    task_spec s = bit_stream_spec(final_output() ? output_kind::binary_final : output_kind::binary_per_position);
    s.tag_name = "parity of the index";
    s.tag_labels = {"even", "odd"};
    return s;
  }
  std::vector<split_info> splits() const {
    std::vector<split_info> out = {{"train", split_role::train, 8, {}}};
    if (f != flaw::no_test_split) out.push_back({"test", split_role::test, 8, {}});
    return out;
  }
  void generate(std::size_t, std::uint64_t, std::int64_t first, std::int32_t count, sequence_batch& out) const {
    ++calls;
    out.reset(count, f == flaw::wrong_length ? 7 : 8);
    for (std::int32_t b = 0; b < count; ++b) {
      const std::int64_t i = first + b;
      const std::int32_t len = f == flaw::no_real_tokens ? 0 : 6;
      out.lengths[static_cast<std::size_t>(b)] = len;
      out.tags[static_cast<std::size_t>(b)] = f == flaw::tag_outside ? 2 : static_cast<std::int32_t>(i % 2);
      for (std::int32_t t = 0; t < len; ++t) {
        out.input(b, t) = static_cast<std::int32_t>((i + t) % 2);
        out.target(b, t) = out.input(b, t);
        out.scored(b, t) = !final_output() || t == len - 1;
      }
      if (f == flaw::nondeterministic) out.input(b, 0) = calls % 2;
      if (f == flaw::unstable_targets) out.target(b, 0) = calls % 2;
      if (f == flaw::depends_on_batch) out.input(b, 0) = count > 1 ? 1 : 0;
      if (f == flaw::token_outside) out.input(b, 1) = 2;
      if (f == flaw::padding_scored) out.scored(b, 7) = 1;
      if (f == flaw::target_outside) out.target(b, 2) = 2;
      if (f == flaw::final_scores_two) out.scored(b, 0) = 1;
      if (f == flaw::final_scores_early) {
        out.scored(b, len - 1) = 0;
        out.scored(b, len - 2) = 1;
      }
    }
  }
};
static_assert(sequence_task<flawed_task>);

std::string verdict(flaw f) {
  flawed_task t;
  t.f = f;
  return check_task_laws(t);
}

}  // namespace

TEST_CASE("the law checker accepts a lawful task and names each broken law") {
  CHECK(verdict(flaw::none) == "");
  flawed_task final;
  final.final = true;
  CHECK(check_task_laws(final) == "");

  CHECK(verdict(flaw::nondeterministic) == "split 'train': law 1: two identical calls gave different batches");
  CHECK(verdict(flaw::unstable_targets) == "split 'train': law 1: two identical calls gave different batches");
  CHECK(verdict(flaw::depends_on_batch) == "split 'train': law 2: sequence 0 differs when generated alone");
  CHECK(verdict(flaw::wrong_length) == "split 'train': law 3: batch shape differs from the split");
  CHECK(verdict(flaw::no_real_tokens) == "split 'train': law 3: lengths out of range");
  CHECK(verdict(flaw::token_outside) == "split 'train': law 3: token outside the vocabulary");
  CHECK(verdict(flaw::padding_scored) == "split 'train': law 3: padding position is scored");
  CHECK(verdict(flaw::target_outside) == "split 'train': law 3: target outside [0, num_classes)");
  CHECK(verdict(flaw::final_scores_two) ==
        "split 'train': law 4: a final-output task must score exactly position lengths[b]-1");
  CHECK(verdict(flaw::final_scores_early) ==
        "split 'train': law 4: a final-output task must score exactly position lengths[b]-1");
  CHECK(verdict(flaw::tag_outside) == "split 'train': law 5: tag outside the declared labels");
  CHECK(verdict(flaw::no_test_split) == "law 6: needs a train split and a test split");
}
