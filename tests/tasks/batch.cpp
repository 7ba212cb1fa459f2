// The batch and prediction layout that tasks and models share (tasks/batch.hpp).
#include <tasks/batch.hpp>
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace bem::tasks;

TEST_CASE("logits per position: one for both binary kinds, num_classes for class outputs") {
  task_spec s;
  s.num_classes = 2;
  s.output = output_kind::binary_per_position;
  CHECK(s.logits_per_position() == 1);
  s.output = output_kind::binary_final;  // the log-odds of 1, not two class scores
  CHECK(s.logits_per_position() == 1);
  s.output = output_kind::class_final;
  CHECK(s.logits_per_position() == 2);
  s.num_classes = 7;
  CHECK(s.logits_per_position() == 7);

  sequence_batch b;
  b.reset(3, 5);
  prediction p;
  p.reset_for(b, s);
  CHECK(p.width == 7);
  CHECK(p.logits.size() == 3 * 5 * 7);
  s.output = output_kind::binary_final;
  p.reset_for(b, s);
  CHECK(p.width == 1);
  CHECK(p.logits.size() == 3 * 5);
}

TEST_CASE("row-major layout: a batch's (b, t) and a prediction's logits") {
  sequence_batch b;
  b.reset(2, 3);
  CHECK(b.lengths == std::vector<std::int32_t>{3, 3});  // every sequence full until a task says otherwise
  b.input(1, 2) = 9;
  b.target(1, 0) = 4;
  b.scored(0, 1) = 1;
  CHECK(b.inputs[1 * 3 + 2] == 9);
  CHECK(b.targets[1 * 3 + 0] == 4);
  CHECK(b.mask[0 * 3 + 1] == 1);
  prediction p;
  p.reset(2, 3, 4);
  p.at(1, 2)[3] = 1.5f;
  CHECK(p.logits[(1 * 3 + 2) * 4 + 3] == 1.5f);
  CHECK(p.at(0, 1) - p.logits.data() == 4);
}
