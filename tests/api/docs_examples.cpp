// The code of docs/using-the-headers.md, docs/writing-a-task-plugin.md and
// the examples in the concept headers' comments, compiled and run. Every
// region between "// [doc]" and "// [/doc]" is shown verbatim in a guide or
// a header; tests/api/check_docs.py fails when the two drift apart. (The
// guides' other code — tests/consumer/main.cpp and meson.build, the example
// plugin — is compiled and run by the tests named in tests/api/meson.build.)
#include <bem/circuits/gate_list.hpp>
#include <bem/circuits/jit.hpp>
#include <bem/machine/lanes.hpp>
#include <bem/prng.hpp>
#include <bem/harness/sequence_model.hpp>
#include <bem/version.hpp>
#include <doctest/doctest.h>
#include <tasks/batch.hpp>
#include <tasks/concepts.hpp>
#include <tasks/laws.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// [doc] include/tasks/concepts.hpp, docs/using-the-headers.md
struct always_one_task {                 // y_t = 1 for every t
  bem::tasks::task_spec spec() const {
    return {};  // the defaults: tokens {0, 1}, a binary label per position
  }
  std::vector<bem::tasks::split_info> splits() const {
    return {{"train", bem::tasks::split_role::train, 8, {}},
            {"test", bem::tasks::split_role::test, 8, {}}};
  }
  void generate(std::size_t, std::uint64_t seed, std::int64_t first,
                std::int32_t count, bem::tasks::sequence_batch& out) const {
    out.reset(count, 8);
    for (std::int32_t b = 0; b < count; ++b) {
      bem::xoshiro256ss rng(bem::derive_seed(seed, 0, first + b));
      for (std::int32_t t = 0; t < 8; ++t) {
        out.input(b, t) = rng.bit();
        out.target(b, t) = 1;
        out.scored(b, t) = 1;
      }
    }
  }
};
static_assert(bem::tasks::sequence_task<always_one_task>);
// [/doc]

// [doc] include/bem/harness/sequence_model.hpp, docs/using-the-headers.md
struct always_one_model {
  void reset(const bem::tasks::task_spec&, std::uint64_t) {}
  void set_learning(bool) {}
  double learn(const bem::tasks::sequence_batch&) { return 0.0; }
  void predict(const bem::tasks::sequence_batch&, bem::tasks::prediction& out) {
    for (float& l : out.logits) l = 4.0f;   // P(1) = 0.982
  }
  std::size_t parameter_count() const { return 0; }
};
static_assert(bem::sequence_model<always_one_model>);
// [/doc]

// [doc] docs/using-the-headers.md: checking a task of your own
TEST_CASE("always_one_task obeys the task laws and always_one_model solves it") {
  const always_one_task task;
  CHECK(bem::tasks::check_task_laws(task, /*seed=*/1, /*count=*/16) == "");

  bem::tasks::sequence_batch batch;
  task.generate(/*split=*/1, /*seed=*/1, /*first=*/0, /*count=*/4, batch);
  bem::tasks::prediction out;
  out.reset_for(batch, task.spec());
  always_one_model model;
  model.reset(task.spec(), /*seed=*/1);
  model.predict(batch, out);
  for (std::int32_t b = 0; b < batch.batch_size; ++b)
    for (std::int32_t t = 0; t < batch.length; ++t)
      CHECK((out.at(b, t)[0] > 0) == (batch.target(b, t) == 1));
}
// [/doc]

// [doc] docs/using-the-headers.md: the PRNG guarantee
// The generator is constexpr, so these hold at compile time — on every
// machine and compiler, a seed names the same bytes.
static_assert(bem::xoshiro256ss(42).next() == 0x15780b2e0c2ec716ull);
static_assert(bem::fnv1a64("train") == 0xdee795a6c5087209ull);
static_assert(bem::sequence_seed(1, "train", 0) == bem::derive_seed(1, bem::fnv1a64("train"), 0));
// [/doc]

// [doc] docs/using-the-headers.md: the ABI namespace
// Every name lives in an inline namespace that encodes the version and the
// configuration; bem::abi_tag spells it ("v0_1_0", or "v0_1_0_checked" when
// compiled with -DBEM_CHECKED=1).
static_assert(std::is_same_v<bem::tasks::sequence_batch, bem::BEM_ABI_NAMESPACE::tasks::sequence_batch>);
static_assert(std::string_view(bem::abi_tag).ends_with("_checked") == (BEM_CHECKED != 0));
// [/doc]

// [doc] docs/using-the-headers.md: circuits found at run time
// A circuit built at run time over inputs x0, x1, x2 (nodes 0..2): node 3 =
// x0 & x1, node 4 = node 3 ^ x2, node 5 = majority(x0, x1, x2); outputs 4, 5.
TEST_CASE("a gate list built at run time: interpreted, and compiled to machine code") {
  const bem::gate_list list(3,
                            {{bem::gate_op::and_, 0, 0, 1, 0},
                             {bem::gate_op::xor_, 0, 3, 2, 0},
                             {bem::gate_op::ternary, bem::ternary_tt::majority, 0, 1, 2}},
                            {4, 5});
  const bem::jit_circuit code(list);  // the code is generated on first use
  using word = bem::lane_word<256>;   // 256 lanes: 256 input assignments at once
  std::vector<word> in(3), interpreted(2), generated(2);
  bem::xoshiro256ss rng(7);
  for (auto& w : in)
    for (auto& x : w.words()) x = rng.next();
  list.evaluate(std::span<const word>(in), std::span<word>(interpreted));
  code.evaluate(std::span<const word>(in), std::span<word>(generated));
  CHECK(generated == interpreted);
  MESSAGE("machine code for " << std::string(bem::jit_backend_name(code.backend())));  // avx512, avx2, interpreter
}
// [/doc]

TEST_CASE("the ABI tag starts with the version") {
  const std::string_view tag = bem::abi_tag;
  CHECK(tag.starts_with("v" + std::to_string(BEM_VERSION_MAJOR) + "_" + std::to_string(BEM_VERSION_MINOR) + "_" +
                        std::to_string(BEM_VERSION_PATCH)));
}

// GCC 12 warns (-Wrestrict) about "s" + std::to_string(v) in the plugin's
// spec() once inlined here: a false positive, GCC bug 105329.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
// [doc] docs/writing-a-task-plugin.md: testing the task class directly
#include "plugin.cpp"  // the plugin's task is a plain C++ class: test it as one

TEST_CASE("last_token_count obeys the task laws and its reference is exact") {
  for (const std::int64_t vocab : {2, 5, 64}) {
    bem::parameters p;
    p.set("vocab", vocab);
    p.set("test_lengths", std::vector<std::int64_t>{1, 2, 100});
    const last_token_count_task task(p);
    p.check_all_used();
    CHECK(bem::tasks::check_task_laws(task, /*seed=*/7, /*count=*/32) == "");

    last_token_count_task::reference_model reference;
    reference.reset(task.spec(), /*seed=*/7);
    for (std::size_t s = 0; s < task.splits().size(); ++s) {
      bem::tasks::sequence_batch batch;
      task.generate(s, /*seed=*/7, /*first=*/0, /*count=*/32, batch);
      bem::tasks::prediction out;
      out.reset_for(batch, task.spec());
      reference.predict(batch, out);
      for (std::int32_t b = 0; b < batch.batch_size; ++b) {
        const std::int32_t last = batch.lengths[static_cast<std::size_t>(b)] - 1;
        const float* logits = out.at(b, last);
        CHECK(std::max_element(logits, logits + out.width) - logits == batch.target(b, last));
      }
    }
  }
}
// [/doc]
#pragma GCC diagnostic pop
